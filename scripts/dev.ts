/**
 * `npm run dev`: the API (tsx watch) and Vite with hot reload, started as one. Ports come from
 * `PORT` (Vite, default 5173) and `API_PORT` (the API, default 8081). Both are checked before
 * anything starts, so a taken port stops the whole command with one clear message instead of
 * leaving a crashed API with its watcher and Vite half alive; once running, either one ending
 * ends the other.
 */
import concurrently from 'concurrently';
import { createServer } from 'node:net';

export function portFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number (1-65535), not '${value}'.`);
  return port;
}

/** Resolves true when nothing listens on the port (we could bind it), false when it is taken. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    });
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

async function main() {
  let webPort: number;
  let apiPort: number;
  try {
    webPort = portFrom(process.env.PORT, 5173, 'PORT');
    apiPort = portFrom(process.env.API_PORT, 8081, 'API_PORT');
  } catch (error) {
    console.error(`npm run dev: ${(error as Error).message}`);
    process.exit(1);
  }
  if (webPort === apiPort) {
    console.error(`npm run dev: PORT and API_PORT are both ${webPort}; give them different ports.`);
    process.exit(1);
  }
  const taken = [];
  for (const [name, port] of [['PORT (Vite)', webPort], ['API_PORT (API)', apiPort]] as const) {
    if (!(await portIsFree(port))) taken.push(`port ${port} for ${name} is already in use`);
  }
  if (taken.length) {
    console.error(`npm run dev: ${taken.join('; ')}. Stop what uses it or choose another, e.g. PORT=5174 API_PORT=8082 npm run dev.`);
    process.exit(1);
  }

  const { result } = concurrently(
    [
      {
        name: 'api',
        command: 'tsx watch --import ./server/platform/text-imports.mjs server/main.ts',
        env: { PORT: String(apiPort), SERVE_SPA: 'false', PUBLIC_BASE_URL: `http://localhost:${webPort}` },
      },
      { name: 'web', command: `vite --port ${webPort} --strictPort`, env: { API_PORT: String(apiPort) } },
    ],
    { killOthersOn: ['failure', 'success'], prefixColors: ['blue', 'magenta'] },
  );
  result.then(() => process.exit(0), () => process.exit(1));
}

if (import.meta.url === `file://${process.argv[1]}`) void main();

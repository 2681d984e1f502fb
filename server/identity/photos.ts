/** Profile photos: checked by magic bytes and size, stored under server-chosen names. */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_PHOTO_BYTES, PHOTO_MESSAGES } from '../../src/api/schemas';
import { HttpError } from '../platform/http';

export { MAX_PHOTO_BYTES, PHOTO_MESSAGES };

const TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
} as const;
type Ext = keyof typeof TYPES;

/** The image type told by the file's first bytes, never by its name or declared type. */
export function sniffImage(bytes: Uint8Array): Ext | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return 'jpg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

export interface UploadStore {
  save(name: string, bytes: Uint8Array): void;
  read(name: string): Uint8Array | null;
  remove(name: string): void;
}

export function memoryUploads(): UploadStore {
  const files = new Map<string, Uint8Array>();
  return {
    save: (name, bytes) => void files.set(name, bytes),
    read: (name) => files.get(name) ?? null,
    remove: (name) => void files.delete(name),
  };
}

export function diskUploads(dir: string): UploadStore {
  mkdirSync(dir, { recursive: true });
  return {
    save: (name, bytes) => writeFileSync(join(dir, name), bytes),
    read: (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : null),
    remove: (name) => {
      if (existsSync(join(dir, name))) unlinkSync(join(dir, name));
    },
  };
}

const NAME = /^[0-9a-f-]{36}\.(jpg|png|webp)$/;

export function contentTypeOf(name: string): string | null {
  const match = NAME.exec(name);
  return match ? TYPES[match[1] as Ext] : null;
}

/** Validates an uploaded photo and stores it; answers its public path. */
export function storePhoto(store: UploadStore, bytes: Uint8Array): string {
  if (bytes.byteLength === 0) throw new HttpError(400, PHOTO_MESSAGES.missing);
  if (bytes.byteLength > MAX_PHOTO_BYTES) throw new HttpError(413, PHOTO_MESSAGES.tooLarge);
  const ext = sniffImage(bytes);
  if (!ext) throw new HttpError(415, PHOTO_MESSAGES.wrongType);
  const name = `${randomUUID()}.${ext}`;
  store.save(name, bytes);
  return `/uploads/${name}`;
}

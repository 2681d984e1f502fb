import { createQueryClient } from './queries';

/** The one query cache of the app, shared by every signed-in route. */
export const queryClient = createQueryClient();

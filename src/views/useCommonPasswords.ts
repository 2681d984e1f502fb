/** Fetches the common-password list (a chunk of its own) once a page shows a new-password field. */
import { useEffect } from 'react';
import { loadCommonPasswords } from '../api/commonPasswords';

export function useCommonPasswords(needed: boolean): void {
  useEffect(() => {
    if (needed) void loadCommonPasswords();
  }, [needed]);
}

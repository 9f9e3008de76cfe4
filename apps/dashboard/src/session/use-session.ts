import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiErrorOf } from '../api/api-error';
import { useApi } from '../api/api-context';
import { SESSION_KEY, type Session } from './session-types';

/** GET /session: the session, or null when signed out (401). */
export function useSessionQuery() {
  const { client } = useApi();
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<Session | null> => {
      const { data, error, response } = await client.GET('/session');
      if (response.status === 401) return null;
      if (!response.ok || data === undefined) throw apiErrorOf(error, response);
      return data;
    },
    staleTime: 60_000,
    retry: false,
  });
}

/** The session inside the signed-in app, where the gate has made sure there is one. */
export function useSession(): Session {
  const { data } = useSessionQuery();
  if (!data) throw new Error('useSession is called outside the signed-in app.');
  return data;
}

/** Stores a session an operation answered (sign-in, a factor, a link), which moves the gate on. */
export function useSetSession(): (session: Session | null) => void {
  const queryClient = useQueryClient();
  return useCallback((session) => queryClient.setQueryData(SESSION_KEY, session), [queryClient]);
}

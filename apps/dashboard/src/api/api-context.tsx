import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { StepUpDialog } from '../factors/step-up-dialog';
import type { Session } from '../session/session-types';
import { SESSION_KEY } from '../session/session-types';
import { ApiError, FRESH_FACTOR_REQUIRED, UNAUTHENTICATED } from './api-error';
import { createDashboardClient, type DashboardClient } from './dashboard-client';
import { unwrap, type CallResult } from './unwrap';

interface Api {
  client: DashboardClient;
  /**
   * Sends a call and answers its data. A `DASHBOARD_FRESH_FACTOR_REQUIRED`
   * refusal opens the step-up dialog and, once a factor is given, sends the
   * call again; an ended session signs the page out.
   */
  call<D>(send: () => Promise<CallResult<D>>): Promise<D>;
}

const ApiContext = createContext<Api | null>(null);

interface PendingStepUp {
  promise: Promise<void>;
  resolve: () => void;
  reject: (reason: unknown) => void;
  refusal: ApiError;
}

export function ApiProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [stepUp, setStepUp] = useState<PendingStepUp | null>(null);
  // Calls refused together share one dialog.
  const pending = useRef<PendingStepUp | null>(null);

  const client = useMemo(
    () => createDashboardClient({ csrfToken: () => queryClient.getQueryData<Session | null>(SESSION_KEY)?.csrfToken }),
    [queryClient],
  );

  const requestStepUp = useCallback((refusal: ApiError): Promise<void> => {
    if (pending.current) return pending.current.promise;
    let resolve!: () => void;
    let reject!: (reason: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const entry: PendingStepUp = { promise, resolve, reject, refusal };
    pending.current = entry;
    setStepUp(entry);
    return promise;
  }, []);

  const finishStepUp = useCallback((outcome: { given: true; session: Session } | { given: false }) => {
    const entry = pending.current;
    pending.current = null;
    setStepUp(null);
    if (!entry) return;
    if (outcome.given) {
      queryClient.setQueryData(SESSION_KEY, outcome.session);
      entry.resolve();
    } else {
      // The API's own message names its routes; a member who closed the dialog is told what the page needs instead.
      entry.reject(new ApiError({ code: entry.refusal.code, status: entry.refusal.status, requestId: entry.refusal.requestId, message: 'Not done: this needs you to confirm it is you, with your passkey or an authentication code. Try again when you are ready.' }));
    }
  }, [queryClient]);

  const call = useCallback(
    async <D,>(send: () => Promise<CallResult<D>>): Promise<D> => {
      try {
        return await unwrap(send());
      } catch (error) {
        if (error instanceof ApiError && error.code === FRESH_FACTOR_REQUIRED) {
          await requestStepUp(error);
          return unwrap(send());
        }
        if (error instanceof ApiError && error.code === UNAUTHENTICATED) queryClient.setQueryData(SESSION_KEY, null);
        throw error;
      }
    },
    [queryClient, requestStepUp],
  );

  const api = useMemo(() => ({ client, call }), [client, call]);
  return (
    <ApiContext.Provider value={api}>
      {children}
      {stepUp ? <StepUpDialog onGiven={(session) => finishStepUp({ given: true, session })} onCancel={() => finishStepUp({ given: false })} /> : null}
    </ApiContext.Provider>
  );
}

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi is called outside ApiProvider.');
  return api;
}

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/api-error';
import { ApiProvider } from './api/api-context';
import { App } from './app';
import './styles.css';

const MAX_READ_RETRIES = 2;

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Only what the service calls retryable is read again; a refusal is shown at once.
      retry: (failures, error) => failures < MAX_READ_RETRIES && (!(error instanceof ApiError) || error.retryable),
      refetchOnWindowFocus: false,
    },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/payment/dashboard">
        <ApiProvider>
          <App />
        </ApiProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);

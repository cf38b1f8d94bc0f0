import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app.js';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // The SDK's transport already retries what is safe to retry; a second layer would only delay the
    // problem the page shows. The API is on this page's own origin, so whether the browser believes it
    // is online (it may not, on a network without internet) says nothing about reaching it.
    queries: { retry: false, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);

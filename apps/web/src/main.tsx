import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './app/providers';
import { createRouter } from './app/router';
import { isChunkLoadError, reloadForChunkError } from './lib/chunk-reload';
import { registerServiceWorker } from './lib/service-worker';

// A chunk of an older build is gone after a deploy: reload (docs/product.md §8). Vite also reports
// here what a callback chained on a lazy import throws (a loader's redirect, say): not a reason to reload.
window.addEventListener('vite:preloadError', (event) => {
  if (isChunkLoadError(event.payload) && reloadForChunkError()) event.preventDefault();
});

const router = createRouter();
const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);

registerServiceWorker();

import { createBrowserRouter, type RouteObject } from 'react-router';
import { sessionGuard } from '../lib/session-guard';
import { Root, RootFallback } from './root';
import { ErrorPage } from './routes/error-page';

/** Every screen loads lazily (SPEC.md §2); the default layout's loader is the session guard. */
export const routes: RouteObject[] = [
  {
    Component: Root,
    HydrateFallback: RootFallback,
    ErrorBoundary: ErrorPage,
    children: [
      {
        lazy: () => import('./layouts/index-layout'),
        children: [{ index: true, lazy: () => import('./routes/login') }],
      },
      {
        lazy: () => import('./layouts/reset-layout'),
        children: [{ path: 'warning', lazy: () => import('./routes/warning') }],
      },
      {
        loader: sessionGuard,
        shouldRevalidate: () => true,
        lazy: () => import('./layouts/default-layout'),
        children: [{ path: 'car/car_list', lazy: () => import('./routes/car/car-list') }],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);

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
        children: [
          { path: 'warning', lazy: () => import('./routes/warning') },
          { path: 'password_reset', lazy: () => import('./routes/password-reset') },
        ],
      },
      {
        loader: sessionGuard,
        shouldRevalidate: () => true,
        lazy: () => import('./layouts/default-layout'),
        children: [
          { path: 'car/car_list', lazy: () => import('./routes/car/car-list') },
          { path: 'car/car_detail/:car_id?/:car_data_id?', lazy: () => import('./routes/car/car-detail') },
          { path: 'car/car_loges/:car_data_id?', lazy: () => import('./routes/car/car-logs') },
          { path: 'car/car_travelroute/:car_id?/:car_data_id?', lazy: () => import('./routes/car/car-travelroute') },
          { path: 'car/car_engine/:car_id?/:car_data_id?', lazy: () => import('./routes/car/car-engine') },
          { path: 'car/car_warning_area/:car_id?/:car_data_id?', lazy: () => import('./routes/car/car-warning-area') },
          { path: 'car/car_forbidden_area/:car_id?/:car_data_id?', lazy: () => import('./routes/car/car-forbidden-area') },
          { path: 'car/car_add', lazy: () => import('./routes/car/car-add') },
          { path: 'car/car_edit/:car_id?', lazy: () => import('./routes/car/car-edit') },
          { path: 'car/car_user_device_add', lazy: () => import('./routes/car/car-user-device-add') },
          { path: 'car/car_user_list', lazy: () => import('./routes/car/car-user-list') },
          { path: 'car/car_user_add', lazy: () => import('./routes/car/car-user-add') },
          { path: 'car/car_user_detail/:user_id?', lazy: () => import('./routes/car/car-user-detail') },
          { path: 'car/car_user_edit/:user_id?', lazy: () => import('./routes/car/car-user-edit') },
          { path: 'car/device/list', lazy: () => import('./routes/device/device-list') },
          { path: 'car/device/add', lazy: () => import('./routes/device/device-add') },
          { path: 'car/device/detail/:car_device_id?', lazy: () => import('./routes/device/device-detail') },
          { path: 'car/device/edit/:car_device_id?', lazy: () => import('./routes/device/device-edit') },
          { path: 'account/account_list', lazy: () => import('./routes/account/account-list') },
          { path: 'account/account_add', lazy: () => import('./routes/account/account-add') },
          { path: 'account/account_detail/:account_id?', lazy: () => import('./routes/account/account-detail') },
          { path: 'account/account_edit/:account_id?', lazy: () => import('./routes/account/account-edit') },
          { path: 'account/password_reset', lazy: () => import('./routes/account/password-reset') },
          { path: 'notify', lazy: () => import('./routes/notify') },
          { path: 'notify/mail_outbox', lazy: () => import('./routes/mail-outbox') },
          { path: 'audit_log', lazy: () => import('./routes/audit-log') },
          { path: 'company/company_list', lazy: () => import('./routes/company/company-list') },
          { path: 'company/company_add', lazy: () => import('./routes/company/company-add') },
          { path: 'company/company_detail/:company_id?', lazy: () => import('./routes/company/company-detail') },
          { path: 'company/company_edit/:company_id?', lazy: () => import('./routes/company/company-edit') },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);

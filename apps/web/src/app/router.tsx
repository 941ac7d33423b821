import { createBrowserRouter, type RouteObject } from 'react-router';
import { sessionGuard } from '../lib/session-guard';
import { shellTexts } from '../lib/texts';
import { Root, RootFallback } from './root';
import { ErrorPage } from './routes/error-page';
import { screen } from './screen';

const t = shellTexts.titles;

/**
 * Every screen loads lazily (docs/product.md §2); the default layout's loader is the session guard. Each
 * screen's handle gives its tab title and, where the permission matrix limits it, the capability
 * the layout's ScreenGuard checks before the screen renders.
 */
export const routes: RouteObject[] = [
  {
    Component: Root,
    HydrateFallback: RootFallback,
    ErrorBoundary: ErrorPage,
    children: [
      {
        lazy: () => import('./layouts/index-layout'),
        children: [{ index: true, handle: screen(t.login), lazy: () => import('./routes/login') }],
      },
      {
        lazy: () => import('./layouts/reset-layout'),
        children: [
          { path: 'warning', handle: screen(t.warning), lazy: () => import('./routes/warning') },
          {
            path: 'password_reset',
            handle: screen(t.passwordResetRequest),
            lazy: () => import('./routes/password-reset'),
          },
        ],
      },
      {
        loader: sessionGuard,
        shouldRevalidate: () => true,
        lazy: () => import('./layouts/default-layout'),
        children: [
          { path: 'car/car_list', handle: screen(t.carList), lazy: () => import('./routes/car/car-list') },
          {
            path: 'car/car_map',
            handle: screen(t.carMap),
            // The loader is a small module of its own: the vehicles are asked for while the map's chunk loads.
            lazy: {
              loader: async () => (await import('./routes/car/car-map-loader')).loader,
              Component: async () => (await import('./routes/car/car-map')).Component,
            },
          },
          {
            path: 'car/car_detail/:car_id?/:car_data_id?',
            handle: screen(t.carDetail),
            lazy: () => import('./routes/car/car-detail'),
          },
          {
            path: 'car/car_loges/:car_data_id?',
            handle: screen(t.carLogs),
            lazy: () => import('./routes/car/car-logs'),
          },
          {
            path: 'car/car_travelroute/:car_id?/:car_data_id?',
            handle: screen(t.carTravelRoute),
            lazy: () => import('./routes/car/car-travelroute'),
          },
          {
            path: 'car/car_daily_report/:car_id?/:car_data_id?',
            handle: screen(t.carDailyReport),
            lazy: () => import('./routes/car/car-daily-report'),
          },
          { path: 'car/car_report', handle: screen(t.carReport), lazy: () => import('./routes/car/car-report') },
          { path: 'car/car_zones', handle: screen(t.carZones), lazy: () => import('./routes/car/car-zones') },
          {
            path: 'car/car_groups',
            handle: screen(t.carGroups, (c) => c.editCarsAndCustomers),
            lazy: () => import('./routes/car/car-groups'),
          },
          {
            path: 'car/car_timeline/:car_id?/:car_data_id?',
            handle: screen(t.carTimeline),
            lazy: () => import('./routes/car/car-timeline'),
          },
          { path: 'alerts', handle: screen(t.alerts), lazy: () => import('./routes/alerts') },
          {
            path: 'trip_settings',
            handle: screen(t.tripSettings, (c) => c.tripSettings),
            lazy: () => import('./routes/trip-settings'),
          },
          {
            path: 'car/car_engine/:car_id?/:car_data_id?',
            handle: screen(t.carEngine),
            lazy: () => import('./routes/car/car-engine'),
          },
          {
            path: 'car/car_warning_area/:car_id?/:car_data_id?',
            handle: screen(t.carWarningArea),
            lazy: () => import('./routes/car/car-warning-area'),
          },
          {
            path: 'car/car_forbidden_area/:car_id?/:car_data_id?',
            handle: screen(t.carForbiddenArea),
            lazy: () => import('./routes/car/car-forbidden-area'),
          },
          {
            path: 'car/car_add',
            handle: screen(t.carAdd, (c) => c.registerCarsAndCustomers),
            lazy: () => import('./routes/car/car-add'),
          },
          {
            path: 'car/car_edit/:car_id?',
            handle: screen(t.carEdit, (c) => c.editCarsAndCustomers),
            lazy: () => import('./routes/car/car-edit'),
          },
          {
            path: 'car/car_user_device_add',
            handle: screen(t.wizard, (c) => c.registerCarsAndCustomers),
            lazy: () => import('./routes/car/car-user-device-add'),
          },
          {
            path: 'car/car_user_list',
            handle: screen(t.customerList),
            lazy: () => import('./routes/car/car-user-list'),
          },
          {
            path: 'car/car_user_add',
            handle: screen(t.customerAdd, (c) => c.registerCarsAndCustomers),
            lazy: () => import('./routes/car/car-user-add'),
          },
          {
            path: 'car/car_user_detail/:user_id?',
            handle: screen(t.customerDetail),
            lazy: () => import('./routes/car/car-user-detail'),
          },
          {
            path: 'car/car_user_edit/:user_id?',
            handle: screen(t.customerEdit, (c) => c.editCarsAndCustomers),
            lazy: () => import('./routes/car/car-user-edit'),
          },
          {
            path: 'car/device/list',
            handle: screen(t.deviceList, (c) => c.devicesAndCompanies),
            lazy: () => import('./routes/device/device-list'),
          },
          {
            path: 'car/device/add',
            handle: screen(t.deviceAdd, (c) => c.devicesAndCompanies),
            lazy: () => import('./routes/device/device-add'),
          },
          {
            path: 'car/device/detail/:car_device_id?',
            handle: screen(t.deviceDetail, (c) => c.devicesAndCompanies),
            lazy: () => import('./routes/device/device-detail'),
          },
          {
            path: 'car/device/edit/:car_device_id?',
            handle: screen(t.deviceEdit, (c) => c.devicesAndCompanies),
            lazy: () => import('./routes/device/device-edit'),
          },
          {
            path: 'account/account_list',
            handle: screen(t.accountList, (c) => c.manageAccounts),
            lazy: () => import('./routes/account/account-list'),
          },
          {
            path: 'account/account_add',
            handle: screen(t.accountAdd, (c) => c.manageAccounts),
            lazy: () => import('./routes/account/account-add'),
          },
          {
            path: 'account/account_detail/:account_id?',
            handle: screen(t.accountDetail),
            lazy: () => import('./routes/account/account-detail'),
          },
          {
            path: 'account/account_edit/:account_id?',
            handle: screen(t.accountEdit, (c) => c.manageAccounts),
            lazy: () => import('./routes/account/account-edit'),
          },
          {
            path: 'account/password_reset',
            handle: screen(t.passwordChange),
            lazy: () => import('./routes/account/password-reset'),
          },
          { path: 'notify', handle: screen(t.notify), lazy: () => import('./routes/notify') },
          {
            path: 'notify/mail_outbox',
            handle: screen(t.mailOutbox, (c) => c.superAdmin),
            lazy: () => import('./routes/mail-outbox'),
          },
          {
            path: 'notify/webhooks',
            handle: screen(t.webhooks, (c) => c.manageWebhooks),
            lazy: () => import('./routes/webhooks'),
          },
          {
            path: 'notify/history',
            handle: screen(t.notifyHistory, (c) => c.notifyHistory),
            lazy: () => import('./routes/notify-history'),
          },
          {
            path: 'notify/webhook_deliveries',
            handle: screen(t.webhookDeliveries, (c) => c.manageWebhooks),
            lazy: () => import('./routes/webhook-deliveries'),
          },
          {
            path: 'audit_log',
            handle: screen(t.auditLog, (c) => c.superAdmin),
            lazy: () => import('./routes/audit-log'),
          },
          {
            path: 'company/company_list',
            handle: screen(t.companyList, (c) => c.devicesAndCompanies),
            lazy: () => import('./routes/company/company-list'),
          },
          {
            path: 'company/company_add',
            handle: screen(t.companyAdd, (c) => c.devicesAndCompanies),
            lazy: () => import('./routes/company/company-add'),
          },
          {
            path: 'company/company_detail/:company_id?',
            handle: screen(t.companyDetail, (c) => c.devicesAndCompanies),
            lazy: () => import('./routes/company/company-detail'),
          },
          {
            path: 'company/company_edit/:company_id?',
            handle: screen(t.companyEdit, (c) => c.devicesAndCompanies),
            lazy: () => import('./routes/company/company-edit'),
          },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);

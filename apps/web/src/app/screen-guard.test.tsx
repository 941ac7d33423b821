import { screen as dom } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useSession } from '../lib/session-store';
import { renderRoutes } from '../testing/render';
import { screen } from './screen';
import { ScreenGuard, useDocumentTitle } from './screen-guard';

function Frame() {
  useDocumentTitle();
  return (
    <ScreenGuard>
      <Outlet />
    </ScreenGuard>
  );
}
const routes = [
  {
    element: <Frame />,
    children: [
      {
        path: '/company/company_add',
        handle: screen('加盟店登録', (c) => c.devicesAndCompanies),
        element: <input aria-label="会社ID" />,
      },
      { path: '/notify', handle: screen('通知設定'), element: <p>通知の設定</p> },
    ],
  },
];
const signInAs = (role: number, company_id: string | null) =>
  useSession.getState().signIn({ id: 'someone', username: '誰か', role, token: 't', company_id });

afterEach(() => useSession.getState().signOut());

describe('ScreenGuard (one guard at the route level)', () => {
  it('shows a company admin the refusal under the screen title, and no form', async () => {
    signInAs(0, 'tokyo-mobility');
    renderRoutes(routes, '/company/company_add');
    expect(await dom.findByRole('alert')).toHaveTextContent('この操作を行う権限がありません。');
    expect(dom.getByRole('heading', { name: '加盟店登録' })).toBeInTheDocument();
    expect(dom.queryByRole('textbox')).toBeNull();
    expect(document.title).toBe('加盟店登録 | フリートコンソール');
  });
  it('shows the super admin the screen itself', async () => {
    signInAs(0, null);
    renderRoutes(routes, '/company/company_add');
    expect(await dom.findByRole('textbox', { name: '会社ID' })).toBeInTheDocument();
    expect(dom.queryByRole('alert')).toBeNull();
  });
  it('lets everyone through to a screen without a capability, with its own title', async () => {
    signInAs(2, 'tokyo-mobility');
    renderRoutes(routes, '/notify');
    expect(await dom.findByText('通知の設定')).toBeInTheDocument();
    expect(document.title).toBe('通知設定 | フリートコンソール');
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../testing/render';
import { activeGroupOf, menuFor, SideMenu } from './side-menu';

const superAdmin = { account_id: 'admin', role: 0, company_id: null };
const menu = (path: string) =>
  renderRoutes(
    [{ path: '*', element: <SideMenu actor={superAdmin} name="管理者" onLogout={() => {}} onNavigate={() => {}} /> }],
    path,
  );
const closedGroups = () => JSON.parse(localStorage.getItem('fleet-console/menu-closed') ?? '[]') as string[];

describe('the side menu folds by group', () => {
  it('finds the group of the screen on show, by its entry or by its area', () => {
    const groups = menuFor(superAdmin);
    expect(activeGroupOf(groups, '/car/car_user_list')).toBe('顧客管理');
    expect(activeGroupOf(groups, '/car/device/detail/D-1')).toBe('GPS端末管理');
    expect(activeGroupOf(groups, '/account/account_edit/x')).toBe('設定');
    expect(activeGroupOf(groups, '/car/car_detail/c-1')).toBe('車両管理');
    expect(activeGroupOf(groups, '/car/car_user_edit/u-1')).toBe('顧客管理');
  });

  it('keeps a folded group folded, and opens the group of the screen on show', async () => {
    localStorage.setItem('fleet-console/menu-closed', JSON.stringify(['設定', '顧客管理']));
    menu('/car/car_user_list');
    expect(await screen.findByRole('link', { name: '顧客一覧' })).toBeVisible();
    expect(screen.queryByRole('link', { name: '通知設定' })).not.toBeInTheDocument();
    expect(closedGroups()).toEqual(['設定']);

    await userEvent.click(screen.getByRole('button', { name: '設定' }));
    expect(await screen.findByRole('link', { name: '通知設定' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: '車両管理' }));
    expect(closedGroups()).toEqual(['車両管理']);
  });
});

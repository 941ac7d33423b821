import { cancelReasons, engineMessages, type ReservationRequest } from '@fleet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { serveApi } from '../../testing/serve-api';
import { RequestsCard } from './requests-card';

const carId = 'C000009';
const carNumber = '杉並 308 あ 35-60';
const me = (engine_control: boolean) => ({
  account_id: 'tokyo-manager',
  name: '森田 沙織',
  role: 1,
  company_id: 'tokyo-mobility',
  company_name: null,
  engine_control,
  stepped_up_until: null,
  selection: {},
  groups_limited: false,
});

const request = (over: Partial<ReservationRequest>): ReservationRequest => ({
  request_id: 'r1',
  car_id: carId,
  cmd: 1,
  execute_at: '2026-11-25T01:00:00.000Z',
  status: 'pending',
  reason: null,
  command_id: null,
  command_status: null,
  created_by: 'tokyo-staff',
  created_by_name: '村上 直樹',
  created_at: '2026-11-24T01:00:00.000Z',
  fired_at: null,
  cancelled_by: null,
  cancelled_by_name: null,
  cancelled_at: null,
  ...over,
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RequestsCard', () => {
  it('shows why a request was cancelled by the server, and the reason in place of the form without エンジン制御権限', async () => {
    const cancelled = request({
      status: 'cancelled',
      reason: cancelReasons.noRight,
      cancelled_at: '2026-11-24T02:00:00.000Z',
    });
    const byUser = request({
      request_id: 'r2',
      status: 'cancelled',
      cancelled_by: 'tokyo-manager',
      cancelled_by_name: '森田 沙織',
      cancelled_at: '2026-11-24T02:00:00.000Z',
    });
    serveApi({
      '/api/get_reserve_requests': [200, { pending: [request({ request_id: 'r0' })], recent: [cancelled, byUser] }],
      '/api/me': [200, me(false)],
    });
    renderWithProviders(<RequestsCard carId={carId} carNumber={carNumber} />);
    expect(await screen.findByText(cancelReasons.noRight)).toBeInTheDocument();
    expect(screen.getByText('取り消し: 森田 沙織')).toBeInTheDocument();
    expect(await screen.findByText(engineMessages.noEngineRight)).toBeInTheDocument();
    expect(screen.queryByLabelText(/実行日時/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '取り消し' })).not.toBeInTheDocument();
  });

  it('asks for the vehicle number and the password before a scheduled prohibit', async () => {
    const api = serveApi({
      '/api/get_reserve_requests': [200, { pending: [], recent: [] }],
      '/api/me': [200, me(true)],
      '/api/step_up': [200, { ok: true, stepped_up_until: '2999-01-01T00:00:00.000Z' }],
      '/api/car_engine_state_reserve_request': [200, { ok: true, request_id: 'r9' }],
    });
    renderWithProviders(<RequestsCard carId={carId} carNumber={carNumber} />);
    fireEvent.change(await screen.findByLabelText(/実行日時/), { target: { value: '2026-12-01T09:30' } });
    await userEvent.click(screen.getByRole('button', { name: '予約する' }));
    const dialog = await screen.findByRole('dialog', { name: 'エンジン始動禁止' });
    expect(dialog).toHaveTextContent(`2026/12/01 09:30 に ${carNumber} のエンジン始動を禁止する予約をします。`);
    const confirm = within(dialog).getByRole('button', { name: '禁止する' });
    await userEvent.type(within(dialog).getByLabelText(/パスワード/), 'fleet-demo-2026');
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('車両番号'), carNumber);
    await userEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.paths().filter((p) => p === '/api/step_up' || p === '/api/car_engine_state_reserve_request')).toEqual([
      '/api/step_up',
      '/api/car_engine_state_reserve_request',
    ]);
    expect(api.bodiesOf('/api/car_engine_state_reserve_request')).toEqual([
      { request: { car_id: carId, cmd: 1, execute_at: '2026-12-01T09:30' } },
    ]);
  });
});

import { engineMessages, terminalIdentityTexts, totpMessages, type ReservedCommand } from '@fleet/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { serveApi, type Answer } from '../../testing/serve-api';
import { CommandCard } from './command-card';

const car = { car_number: '品川 300 あ 11-20', car_data_id: '358409101000000' };
const at = '2026-11-25T01:00:00.000Z';

const me = (engine_control: boolean, stepped_up_until: string | null = null) => ({
  account_id: 'tokyo-manager',
  name: '森田 沙織',
  role: 1,
  company_id: 'tokyo-mobility',
  company_name: '株式会社東京モビリティサービス',
  engine_control,
  stepped_up_until,
  selection: {},
  groups_limited: false,
});

const command = (over: Partial<ReservedCommand> = {}): ReservedCommand => ({
  command_id: 1,
  car_data_id: car.car_data_id,
  cmd_idx: 0,
  cmd_type: 'set_engine_boot_permission',
  cmd_info: { cmd: 1 },
  state: 1,
  status: 'execWait',
  created_by: 'tokyo-staff',
  created_by_name: '村上 直樹',
  created_at: at,
  expires_at: at,
  fetched_at: null,
  result_at: null,
  result: null,
  request_id: null,
  closed_at: null,
  cancel_reason: null,
  sent_link: null,
  answer_link: null,
  link_changed: false,
  events: [{ state: 1, event: 'reserved', account_id: 'tokyo-staff', account_name: '村上 直樹', at, reason: null }],
  ...over,
});

const idleSlot: Answer = [200, { car_data_id: car.car_data_id, cmd_idx: 0, state: 0, command: null }];
const reserved: Answer = [200, { ok: true, command: command() }];

async function openProhibitDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'エンジン始動を禁止' }));
  const dialog = await screen.findByRole('dialog', { name: 'エンジン始動禁止' });
  await userEvent.type(within(dialog).getByLabelText('車両番号'), car.car_number);
  return dialog;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CommandCard: the right to control engines (docs/engine-control.md)', () => {
  it('shows the reason in place of the permit and prohibit buttons without エンジン制御権限', async () => {
    serveApi({
      '/api/car_get_reserve_cmd': [200, { car_data_id: car.car_data_id, cmd_idx: 0, state: 1, command: command() }],
      '/api/me': [200, me(false)],
    });
    renderWithProviders(<CommandCard car={car} />);
    expect(await screen.findByText(engineMessages.noEngineRight)).toBeInTheDocument();
    expect(screen.getByTestId('command-status')).toHaveTextContent('実行待ち');
    expect(screen.queryByRole('button', { name: 'コマンドを削除' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'エンジン始動を許可' })).not.toBeInTheDocument();
  });

  it('shows a command the server cancelled as 取消（権限なし） with its reason in the timeline', async () => {
    const reason = '権限がなくなったため取消';
    const cancelled = command({
      status: 'cancelled',
      cancel_reason: reason,
      closed_at: at,
      events: [...command().events, { state: 1, event: 'cancelled', account_id: null, account_name: null, at, reason }],
    });
    serveApi({
      '/api/car_get_reserve_cmd': [200, { car_data_id: car.car_data_id, cmd_idx: 0, state: 0, command: cancelled }],
      '/api/me': [200, me(true)],
    });
    renderWithProviders(<CommandCard car={car} />);
    expect(await screen.findByTestId('command-status')).toHaveTextContent('取消（権限なし）');
    expect(screen.getByTestId('cancel-reason')).toHaveTextContent(reason);
    // The timeline: the event and, under it, why.
    expect(screen.getByText('取消')).toBeInTheDocument();
    expect(screen.getByText(reason)).toBeInTheDocument();
  });

  it('warns on a prohibit whose answer came on another terminal link than it was sent on', async () => {
    const answered = command({
      state: 3,
      status: 'succeeded',
      result: { success: true, detail: 'DOUT1:1' },
      sent_link: { address: '203.0.113.7', connected_at: at },
      answer_link: { address: '198.51.100.9', connected_at: '2026-11-25T01:05:00.000Z' },
      link_changed: true,
    });
    serveApi({
      '/api/car_get_reserve_cmd': [200, { car_data_id: car.car_data_id, cmd_idx: 0, state: 3, command: answered }],
      '/api/me': [200, me(true)],
    });
    renderWithProviders(<CommandCard car={car} />);
    const warning = await screen.findByTestId('link-changed');
    expect(warning).toHaveTextContent(terminalIdentityTexts.linkChangedWarning);
    expect(warning).toHaveTextContent('203.0.113.7');
    expect(warning).toHaveTextContent('198.51.100.9');
  });
});

describe('CommandCard: the step-up before a prohibit', () => {
  it('asks for the password, shows a wrong one under the field and reserves nothing, then prohibits with the right one', async () => {
    const api = serveApi({
      '/api/car_get_reserve_cmd': idleSlot,
      '/api/me': [200, me(true)],
      '/api/step_up': [
        [
          401,
          {
            code: 'UNAUTHORIZED',
            message: engineMessages.stepUpFailed,
            errors: { password: engineMessages.stepUpFailed },
          },
        ],
        [200, { ok: true, stepped_up_until: '2999-01-01T00:00:00.000Z' }],
      ],
      '/api/car_engine_state_reserve': reserved,
    });
    renderWithProviders(<CommandCard car={car} />);
    const dialog = await openProhibitDialog();
    const confirm = within(dialog).getByRole('button', { name: '禁止する' });
    expect(confirm).toBeDisabled();
    const password = within(dialog).getByLabelText(/パスワード/);
    await userEvent.type(password, 'wrong-password');
    await userEvent.click(confirm);
    expect(await within(dialog).findByText(engineMessages.stepUpFailed)).toBeInTheDocument();
    expect(password).toHaveAccessibleDescription(expect.stringContaining(engineMessages.stepUpFailed));
    expect(api.paths()).not.toContain('/api/car_engine_state_reserve');

    await userEvent.clear(password);
    await userEvent.type(password, 'fleet-demo-2026');
    await userEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf('/api/step_up').at(-1)).toEqual({ password: 'fleet-demo-2026' });
    expect(api.bodiesOf('/api/car_engine_state_reserve')).toEqual([
      { car_data_id: car.car_data_id, cmd_info: { cmd: 1, expires_in_minutes: 1440 } },
    ]);
  });

  it('skips the password while stepped up, and asks for it and retries when the server says the step-up ran out', async () => {
    const api = serveApi({
      '/api/car_get_reserve_cmd': idleSlot,
      '/api/me': [200, me(true, '2999-01-01T00:00:00.000Z')],
      '/api/step_up': [200, { ok: true, stepped_up_until: '2999-01-01T00:00:00.000Z' }],
      '/api/car_engine_state_reserve': [
        [403, { code: 'STEP_UP_REQUIRED', message: engineMessages.stepUpRequired }],
        reserved,
      ],
    });
    renderWithProviders(<CommandCard car={car} />);
    const dialog = await openProhibitDialog();
    expect(within(dialog).queryByLabelText(/パスワード/)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '禁止する' }));

    const password = await within(dialog).findByLabelText(/パスワード/);
    expect(within(dialog).getByText(engineMessages.stepUpRequired)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '禁止する' })).toBeDisabled();
    await userEvent.type(password, 'fleet-demo-2026');
    await userEvent.click(within(dialog).getByRole('button', { name: '禁止する' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.paths().filter((p) => p === '/api/car_engine_state_reserve')).toHaveLength(2);
    expect(api.bodiesOf('/api/step_up')).toEqual([{ password: 'fleet-demo-2026' }]);
  });

  it('asks for the TOTP code after the password when the account has one (OTP_REQUIRED), a wrong code under its field', async () => {
    const api = serveApi({
      '/api/car_get_reserve_cmd': idleSlot,
      '/api/me': [200, me(true)],
      '/api/step_up': [
        [401, { code: 'OTP_REQUIRED', message: totpMessages.otpRequired, errors: { otp: totpMessages.otpRequired } }],
        [401, { code: 'UNAUTHORIZED', message: totpMessages.otpWrong, errors: { otp: totpMessages.otpWrong } }],
        [200, { ok: true, stepped_up_until: '2999-01-01T00:00:00.000Z' }],
      ],
      '/api/car_engine_state_reserve': reserved,
    });
    renderWithProviders(<CommandCard car={car} />);
    const dialog = await openProhibitDialog();
    await userEvent.type(within(dialog).getByLabelText(/パスワード/), 'fleet-demo-2026');
    await userEvent.click(within(dialog).getByRole('button', { name: '禁止する' }));
    const code = await within(dialog).findByLabelText(/確認コード/);
    expect(within(dialog).getByRole('button', { name: '禁止する' })).toBeDisabled();
    await userEvent.type(code, '111111');
    await userEvent.click(within(dialog).getByRole('button', { name: '禁止する' }));
    expect(await within(dialog).findByText(totpMessages.otpWrong)).toBeInTheDocument();
    expect(api.paths()).not.toContain('/api/car_engine_state_reserve');
    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: '禁止する' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf('/api/step_up')).toEqual([
      { password: 'fleet-demo-2026' },
      { password: 'fleet-demo-2026', otp: '111111' },
      { password: 'fleet-demo-2026', otp: '123456' },
    ]);
    expect(api.paths()).toContain('/api/car_engine_state_reserve');
  });

  it('permits without the password', async () => {
    const api = serveApi({
      '/api/car_get_reserve_cmd': idleSlot,
      '/api/me': [200, me(true)],
      '/api/car_engine_state_reserve': reserved,
    });
    renderWithProviders(<CommandCard car={car} />);
    await userEvent.click(await screen.findByRole('button', { name: 'エンジン始動を許可' }));
    const dialog = await screen.findByRole('dialog', { name: 'エンジン始動許可' });
    expect(within(dialog).queryByLabelText(/パスワード/)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '許可する' }));
    await waitFor(() =>
      expect(api.bodiesOf('/api/car_engine_state_reserve')).toEqual([
        { car_data_id: car.car_data_id, cmd_info: { cmd: 0, expires_in_minutes: 1440 } },
      ]),
    );
    expect(api.paths()).not.toContain('/api/step_up');
  });
});

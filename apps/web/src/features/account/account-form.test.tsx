import { accountMessages, type AccountFormInput } from '@fleet/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../lib/session-store';
import { renderWithProviders } from '../../testing/render';
import { serveApi } from '../../testing/serve-api';
import { AccountFormView } from './account-form';

const newAccount: AccountFormInput = {
  account_id: 'new-staff-01',
  name: '',
  email: '',
  role: 2,
  company_id: 'tokyo-mobility',
  engine_control: false,
  password: '',
  password_confirm: '',
};
const engineSwitch = () => screen.getByRole('switch', { name: /^エンジン制御権限/ });

async function chooseRole(label: string) {
  await userEvent.click(screen.getByRole('combobox', { name: /^権限/ }));
  await userEvent.click(await screen.findByRole('option', { name: label, hidden: true }));
}

beforeEach(() => {
  useSession
    .getState()
    .signIn({ id: 'tokyo-manager', username: '森田 沙織', role: 1, token: 't', company_id: 'tokyo-mobility' });
});

afterEach(() => {
  vi.restoreAllMocks();
  cleanup(); // before signing out: the form needs its signed-in actor while mounted
  useSession.getState().signOut();
});

describe('AccountFormView: エンジン制御権限', () => {
  it('on add, follows the role (defaultEngineControl) until the user sets it, and sends it', async () => {
    const api = serveApi({
      '/api/account_exist_check': [200, { isExist: false }],
      '/api/account_add': [200, { ok: true, account_id: 'new-staff-01' }],
    });
    renderWithProviders(<AccountFormView mode="add" initial={newAccount} />);
    expect(engineSwitch()).not.toBeChecked();
    await chooseRole('マネージャー');
    await waitFor(() => expect(engineSwitch()).toBeChecked());
    await userEvent.click(engineSwitch());
    expect(engineSwitch()).not.toBeChecked();
    await chooseRole('一般');
    await chooseRole('マネージャー');
    expect(engineSwitch()).not.toBeChecked();

    await userEvent.type(screen.getByRole('textbox', { name: /^氏名/ }), '新人 一郎');
    await userEvent.type(screen.getByRole('textbox', { name: /^メールアドレス/ }), 'new-staff@example.jp');
    for (const input of document.querySelectorAll<HTMLInputElement>('input[type=password]'))
      await userEvent.type(input, 'account-pass-1');
    await userEvent.click(screen.getByRole('button', { name: '登録する' }));
    await waitFor(() => expect(api.bodiesOf('/api/account_add')).toHaveLength(1));
    expect(api.bodiesOf('/api/account_add')[0]).toMatchObject({
      info: { account_id: 'new-staff-01', role: 1, engine_control: false },
    });
  });

  it("shows one's own right read-only", async () => {
    serveApi({});
    renderWithProviders(
      <AccountFormView
        mode="edit"
        initial={{ ...newAccount, account_id: 'tokyo-manager', role: 1, engine_control: true }}
      />,
    );
    expect(engineSwitch()).toBeChecked();
    expect(engineSwitch()).toBeDisabled();
    expect(screen.getByText(accountMessages.selfEngineControl)).toBeInTheDocument();
  });
});

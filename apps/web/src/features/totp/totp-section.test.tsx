import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { TotpSection } from './totp-section';

const staff = { account_id: 'staff-a', role: 2, company_id: 'company-a' };
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const recoveryCodes = Array.from(
  { length: 10 },
  (_, i) => `abcd-efgh-ijkl-mn${'234567'[i % 6]}${'234567'[(i / 6) | 0]}`,
);

/** The codes are listed once, with copy and download; once the user kept them they are gone from the screen. */
async function expectCodesShownOnce(codes: string[]) {
  const panel = await screen.findByTestId('recovery-codes-panel');
  for (const code of codes) expect(within(panel).getByText(code)).toBeInTheDocument();
  const writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  await userEvent.click(within(panel).getByRole('button', { name: 'コピー' }));
  expect(writeText).toHaveBeenCalledWith(codes.join('\n'));
  const createObjectURL = vi.fn((_blob: Blob) => 'blob:recovery');
  Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
  await userEvent.click(within(panel).getByRole('button', { name: 'ダウンロード' }));
  const file = createObjectURL.mock.calls[0]![0];
  expect(await file.text()).toContain(codes.join('\n'));
  await userEvent.click(within(panel).getByRole('button', { name: '保管しました' }));
  expect(screen.queryByTestId('recovery-codes-panel')).not.toBeInTheDocument();
  expect(screen.queryByText(codes[0]!)).not.toBeInTheDocument();
}

afterEach(() => vi.restoreAllMocks());

type Answer = [status: number, body: unknown];
/** Answers each call by its path; a list is used up in order and its last answer repeats. */
function serveApi(routes: Record<string, Answer[]>) {
  const calls: { path: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = String(input);
    calls.push({ path, body: JSON.parse(String(init?.body ?? '{}')) });
    const answers = routes[path] ?? [[404, { code: 'NOT_FOUND', message: path }]];
    const [status, body] = answers.length > 1 ? answers.shift()! : answers[0]!;
    return new Response(JSON.stringify(body), { status });
  });
  return { bodiesOf: (path: string) => calls.filter((c) => c.path === path).map((c) => c.body) };
}

describe('TotpSection (二段階認証)', () => {
  it('sets up: QR code and key, then the code confirms it', async () => {
    const api = serveApi({
      '/api/totp_status': [
        [200, { enabled: false, required: false, recovery_codes_left: 0 }],
        [200, { enabled: true, required: false, recovery_codes_left: 10 }],
      ],
      '/api/totp_setup': [[200, { secret, otpauth_url: `otpauth://totp/x:staff-a?secret=${secret}&issuer=x` }]],
      '/api/totp_enable': [
        [
          400,
          {
            code: 'BAD_REQUEST',
            message: '確認コードが正しくありません。',
            errors: { otp: '確認コードが正しくありません。' },
          },
        ],
        [200, { ok: true, recovery_codes: recoveryCodes }],
      ],
    });
    renderWithProviders(<TotpSection actor={staff} />);
    await userEvent.click(await screen.findByRole('button', { name: '二段階認証を設定する' }));
    expect(await screen.findByRole('img', { name: '二段階認証の設定用QRコード' })).toBeInTheDocument();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    await userEvent.type(screen.getByLabelText(/確認コード/), '12a');
    await userEvent.click(screen.getByRole('button', { name: '確認して有効にする' }));
    expect(await screen.findByText('6桁の数字で入力してください')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/確認コード/));
    await userEvent.type(screen.getByLabelText(/確認コード/), '123456');
    await userEvent.click(screen.getByRole('button', { name: '確認して有効にする' }));
    expect(await screen.findByText('確認コードが正しくありません。')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '確認して有効にする' }));
    expect(
      await screen.findByText('二段階認証を有効にしました。次回のログインから確認コードが必要です。'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('有効')).toBeInTheDocument());
    expect(api.bodiesOf('/api/totp_enable')).toEqual([{ otp: '123456' }, { otp: '123456' }]);
    await expectCodesShownOnce(recoveryCodes);
  }, 20_000);

  it('shows how many recovery codes are left and renews them with the password and a recovery code', async () => {
    const fresh = recoveryCodes.map((c) => c.replace(/^..../, 'zzzz'));
    const api = serveApi({
      '/api/totp_status': [
        [200, { enabled: true, required: false, recovery_codes_left: 2 }],
        [200, { enabled: true, required: false, recovery_codes_left: 10 }],
      ],
      '/api/totp_recovery_codes': [[200, { ok: true, recovery_codes: fresh }]],
    });
    renderWithProviders(<TotpSection actor={staff} />);
    expect(await screen.findByTestId('recovery-left')).toHaveTextContent(
      '未使用のリカバリーコード: 2個 未使用のリカバリーコードが少なくなっています。再発行してください。',
    );
    const renew = screen.getByRole('button', { name: '再発行する' }).closest('form')!;
    await userEvent.type(within(renew).getByLabelText(/パスワード/), 'fixture-pass');
    await userEvent.click(within(renew).getByRole('button', { name: 'リカバリーコードを使う' }));
    await userEvent.type(within(renew).getByLabelText(/リカバリーコード/), 'abc');
    await userEvent.click(within(renew).getByRole('button', { name: '再発行する' }));
    expect(
      await within(renew).findByText('リカバリーコードは「xxxx-xxxx-xxxx-xxxx」の16文字で入力してください'),
    ).toBeInTheDocument();
    await userEvent.clear(within(renew).getByLabelText(/リカバリーコード/));
    await userEvent.type(within(renew).getByLabelText(/リカバリーコード/), recoveryCodes[0]!);
    await userEvent.click(within(renew).getByRole('button', { name: '再発行する' }));
    expect(await screen.findByText('リカバリーコードを再発行しました。')).toBeInTheDocument();
    expect(api.bodiesOf('/api/totp_recovery_codes')).toEqual([
      { password: 'fixture-pass', recovery_code: recoveryCodes[0]!.replaceAll('-', '') },
    ]);
    await expectCodesShownOnce(fresh);
    expect(screen.getByTestId('recovery-left')).toHaveTextContent('未使用のリカバリーコード: 10個');
  }, 20_000);

  it('turns it off with the password and a code', async () => {
    const api = serveApi({
      '/api/totp_status': [
        [200, { enabled: true, required: false, recovery_codes_left: 10 }],
        [200, { enabled: false, required: false, recovery_codes_left: 0 }],
      ],
      '/api/totp_disable': [[200, { ok: true }]],
    });
    renderWithProviders(<TotpSection actor={staff} />);
    const off = (await screen.findByRole('button', { name: '無効にする' })).closest('form')!;
    await userEvent.type(within(off).getByLabelText(/パスワード/), 'fixture-pass');
    await userEvent.type(within(off).getByLabelText(/確認コード/), '654321');
    await userEvent.click(within(off).getByRole('button', { name: '無効にする' }));
    expect(await screen.findByText('二段階認証を無効にしました。')).toBeInTheDocument();
    expect(api.bodiesOf('/api/totp_disable')).toEqual([{ password: 'fixture-pass', otp: '654321' }]);
  });
});

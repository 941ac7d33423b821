import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { serveApi } from '../../testing/serve-api';
import { Component as MailOutbox } from './mail-outbox';

afterEach(() => vi.restoreAllMocks());

const mail = (id: number, status: 'pending' | 'sent' | 'failed') => ({
  id,
  to_addr: `user${id}@example.jp`,
  subject: `件名${id}`,
  kind: 'notification',
  status,
  attempts: status === 'failed' ? 3 : 1,
  next_attempt_at: '2024-04-01T01:00:00Z',
  last_error: status === 'failed' ? 'SMTP 550' : null,
  sent_at: status === 'sent' ? '2024-04-01T00:30:00Z' : null,
  created_at: '2024-04-01T00:00:00Z',
});

describe('送信メール一覧', () => {
  it('lists the mail in the shared list table, pages, and a status filter starts again at the first page', async () => {
    const api = serveApi({
      '/api/mail_outbox_list': [
        [200, { count: 41, list: [mail(1, 'sent'), mail(2, 'failed')] }],
        [200, { count: 41, list: [mail(3, 'pending')] }],
        [200, { count: 1, list: [mail(2, 'failed')] }],
      ],
    });
    renderWithProviders(<MailOutbox />);
    const failed = await screen.findByRole('row', { name: /user2@example\.jp/ });
    expect(failed).toHaveTextContent('通知');
    expect(failed).toHaveTextContent('送信失敗');
    expect(failed).toHaveTextContent('SMTP 550');
    expect(screen.getByTestId('list-range')).toHaveTextContent('全41件中 1〜20件を表示');

    await userEvent.click(screen.getByRole('button', { name: '2ページ' }));
    await screen.findByRole('row', { name: /user3@example\.jp/ });
    await userEvent.click(screen.getByRole('radio', { name: '送信失敗' }));
    await waitFor(() => expect(screen.getByTestId('list-range')).toHaveTextContent('全1件中 1〜1件を表示'));
    expect(api.bodiesOf('/api/mail_outbox_list')).toEqual([
      { status: 'all', offset: 0, limit: 20 },
      { status: 'all', offset: 20, limit: 20 },
      { status: 'failed', offset: 0, limit: 20 },
    ]);
  });

  it('says so when there is no mail', async () => {
    serveApi({ '/api/mail_outbox_list': [200, { count: 0, list: [] }] });
    renderWithProviders(<MailOutbox />);
    expect(await screen.findByText('メールはありません。')).toBeInTheDocument();
  });
});

import { deliveryErrorMessages, webhookMessages } from '@fleet/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookForm } from '../../features/webhooks/components/webhook-form';
import { renderWithProviders } from '../../testing/render';
import { serveApi } from '../../testing/serve-api';
import { Component as WebhookDeliveries } from './webhook-deliveries';

afterEach(() => vi.restoreAllMocks());

const delivery = (id: number, url: string, last_status: number | null, last_error: string | null) => ({
  id,
  webhook_id: 1,
  url,
  event_id: `ev-${id}`,
  event_type: 'terminal.offline',
  status: 'pending',
  attempts: 2,
  last_status,
  last_error,
  next_attempt_at: '2024-04-01T01:00:00Z',
  sent_at: null,
  created_at: '2024-04-01T00:00:00Z',
});

describe('Webhook送信履歴', () => {
  it('shows why a call failed as the server words it: a category or the HTTP status', async () => {
    serveApi({
      '/api/webhook_delivery_list': [
        200,
        {
          count: 3,
          list: [
            delivery(3, 'https://internal.example.jp/hook', null, deliveryErrorMessages.blocked),
            delivery(2, 'https://down.example.jp/hook', null, deliveryErrorMessages.connect),
            delivery(1, 'https://busy.example.jp/hook', 500, 'HTTP 500'),
          ],
        },
      ],
    });
    renderWithProviders(<WebhookDeliveries />);
    const blocked = await screen.findByRole('row', { name: /internal\.example\.jp/ });
    expect(blocked).toHaveTextContent('送信待ち');
    expect(blocked).toHaveTextContent('送信先が許可されていません（内部ネットワークのアドレス）');
    expect(screen.getByRole('row', { name: /down\.example\.jp/ })).toHaveTextContent('接続できません');
    const busy = screen.getByRole('row', { name: /busy\.example\.jp/ });
    expect(busy).toHaveTextContent('HTTP 500');
    expect(busy).toHaveTextContent('500');
  });
});

describe('Webhookの追加', () => {
  it('shows the refusal of an internal address under the URL field', async () => {
    serveApi({
      '/api/webhook_add': [
        400,
        { code: 'BAD_REQUEST', message: '入力内容に誤りがあります', errors: { url: webhookMessages.privateTarget } },
      ],
    });
    renderWithProviders(<WebhookForm onClose={() => undefined} />);
    await userEvent.click(screen.getByLabelText(/送信先URL/));
    await userEvent.paste('http://127.0.0.1:8080/hook');
    await userEvent.click(screen.getByRole('checkbox', { name: 'コマンドの状態変化（結果を含む）' }));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(webhookMessages.privateTarget)).toBeInTheDocument();
    expect(screen.getByLabelText(/送信先URL/)).toHaveAttribute('aria-invalid', 'true');
  });
});

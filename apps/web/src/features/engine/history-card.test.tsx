import { terminalIdentityTexts, type ReservedCommand } from '@fleet/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { serveApi } from '../../testing/serve-api';
import { HistoryCard } from './history-card';

const imei = '358409101000000';
const at = '2026-11-25T01:00:00.000Z';
const later = '2026-11-25T01:05:00.000Z';

const prohibit = (command_id: number, over: Partial<ReservedCommand>): ReservedCommand => ({
  command_id,
  car_data_id: imei,
  cmd_idx: 0,
  cmd_type: 'set_engine_boot_permission',
  cmd_info: { cmd: 1 },
  state: 3,
  status: 'succeeded',
  created_by: 'tokyo-staff',
  created_by_name: '村上 直樹',
  created_at: at,
  expires_at: null,
  fetched_at: at,
  result_at: later,
  result: { success: true, detail: 'DOUT1:1' },
  request_id: null,
  closed_at: null,
  cancel_reason: null,
  sent_link: { address: '203.0.113.7', connected_at: at },
  answer_link: { address: '203.0.113.7', connected_at: at },
  link_changed: false,
  events: [],
  ...over,
});

describe('HistoryCard: the link a command went out on and the one its answer came on', () => {
  it('warns on a command answered on another link, with both links, and only on that one', async () => {
    serveApi({
      '/api/car_get_reserve_cmd_history': [
        200,
        {
          list: [
            prohibit(2, {
              answer_link: { address: '198.51.100.9', connected_at: later },
              link_changed: true,
            }),
            prohibit(1, {}),
          ],
        },
      ],
    });
    renderWithProviders(<HistoryCard carDataId={imei} />);
    const warnings = await screen.findAllByRole('alert');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toHaveTextContent(terminalIdentityTexts.linkChangedWarning);
    expect(warnings[0]).toHaveTextContent('203.0.113.7');
    expect(warnings[0]).toHaveTextContent('198.51.100.9');
  });
});

import { userList, userListCount } from '@fleet/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { useListQuery } from './use-list-query';

/** A list screen's data, drawn as text: the total and the rows' ids. */
function Probe({ refetchInterval }: { refetchInterval?: number }) {
  const list = useListQuery({
    id: `probe-${refetchInterval ?? 'none'}`,
    countCall: userListCount,
    listCall: userList,
    defaultSort: { item: 'user_id' },
    ...(refetchInterval ? { refetchInterval } : {}),
  });
  return <p data-testid="probe">{`${list.total}:${list.rows.map((r) => r.user_id).join(',')}`}</p>;
}

/** The server's answers: the count grows by one at every count call, the page names the call. */
function serve() {
  let counts = 0;
  let pages = 0;
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = String(input);
    const body = path.endsWith('_count')
      ? { count: ++counts }
      : {
          list: [
            {
              user_id: `U${++pages}`,
              first_name: '',
              name: '青木',
              company_id: null,
              company_name: null,
              merchant: '',
              payment_log: 0,
              state: 0,
              car_id: null,
              isDelete: false,
            },
          ],
        };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}

afterEach(() => vi.restoreAllMocks());

describe('useListQuery', () => {
  it('with refetchInterval asks for the count and the page again while the screen is open', async () => {
    const fetch = serve();
    renderWithProviders(<Probe refetchInterval={40} />);
    await waitFor(() => expect(screen.getByTestId('probe')).toHaveTextContent(/^1:U1$/));
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toMatch(/^[3-9]:U[3-9]$/), { timeout: 2000 });
    expect(fetch.mock.calls.length).toBeGreaterThanOrEqual(6);
  });

  it('without it asks once', async () => {
    const fetch = serve();
    renderWithProviders(<Probe />);
    await waitFor(() => expect(screen.getByTestId('probe')).toHaveTextContent(/^1:U1$/));
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getByTestId('probe')).toHaveTextContent(/^1:U1$/);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

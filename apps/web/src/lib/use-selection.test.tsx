import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../testing/render';
import { serveApi } from '../testing/serve-api';
import { useSession } from './session-store';
import { useRememberSelection, useSelection, type SelectionKey } from './use-selection';

function One({ k }: { k: SelectionKey }) {
  return <span>{`${k}=${useSelection(k)} `}</span>;
}
function Show({ keys }: { keys: SelectionKey[] }) {
  return (
    <p data-testid="ids">
      {keys.map((k) => (
        <One key={k} k={k} />
      ))}
    </p>
  );
}
const routes = (keys: SelectionKey[]) => [
  { path: '/car/:car_id?/:car_data_id?', element: <Show keys={keys} /> },
  { path: '/logs/:car_data_id?', element: <Show keys={keys} /> },
  { path: '/account/:account_id?', element: <Show keys={keys} /> },
];

beforeEach(() => {
  useSession.getState().signIn({ id: 'own-account', username: '本人', role: 1, token: 't', company_id: null });
  useSession.getState().select({ car_id: 'C-STORED', car_data_id: 'IMEI-STORED', user_id: 'U-STORED' });
});
afterEach(() => vi.restoreAllMocks());

describe('useSelection', () => {
  it('takes the id in the URL first', () => {
    renderRoutes(routes(['car_id', 'car_data_id']), '/car/C-URL/IMEI-URL');
    expect(screen.getAllByTestId('ids').at(-1)).toHaveTextContent(/^car_id=C-URL car_data_id=IMEI-URL$/);
  });

  it('falls back to the one selected last in this session', () => {
    renderRoutes(routes(['car_id', 'car_data_id', 'user_id']), '/car');
    expect(screen.getAllByTestId('ids').at(-1)).toHaveTextContent(
      /^car_id=C-STORED car_data_id=IMEI-STORED user_id=U-STORED$/,
    );
  });

  it("does not pair another vehicle's terminal with the vehicle named in the URL", () => {
    renderRoutes(routes(['car_id', 'car_data_id']), '/car/C-URL');
    expect(screen.getAllByTestId('ids').at(-1)).toHaveTextContent(/^car_id=C-URL car_data_id=$/);
  });

  it('takes the remembered terminal where the URL names none (the data log)', () => {
    renderRoutes(routes(['car_data_id']), '/logs');
    expect(screen.getAllByTestId('ids').at(-1)).toHaveTextContent(/^car_data_id=IMEI-STORED$/);
  });

  it("gives the signed-in account's own id when the URL names no account", () => {
    renderRoutes(routes(['account_id']), '/account');
    expect(screen.getAllByTestId('ids').at(-1)).toHaveTextContent(/^account_id=own-account$/);
    renderRoutes(routes(['account_id']), '/account/someone');
    expect(screen.getAllByTestId('ids').at(-1)).toHaveTextContent(/^account_id=someone$/);
  });
});

describe('useRememberSelection', () => {
  function Remember({ picked }: { picked: Parameters<typeof useRememberSelection>[0] }) {
    useRememberSelection(picked);
    return null;
  }

  it('keeps the ids in the session and tells the server through the session_* calls', async () => {
    const api = serveApi({
      '/api/session_car_id': [200, { result: true }],
      '/api/session_user_id': [200, { result: true }],
    });
    renderRoutes([
      { path: '*', element: <Remember picked={{ car_id: 'C-NEW', car_data_id: 'IMEI-NEW', user_id: '' }} /> },
    ]);
    await waitFor(() => expect(api.bodiesOf('/api/session_car_id')).toEqual([{ car_id: 'C-NEW' }]));
    expect(useSession.getState()).toMatchObject({ car_id: 'C-NEW', car_data_id: 'IMEI-NEW', user_id: 'U-STORED' });
    // An empty id is not a selection: nothing is sent for it, and the terminal has no session call of its own.
    expect(api.paths()).toEqual(['/api/session_car_id']);
  });

  it('does nothing until an id is known', async () => {
    const api = serveApi({});
    renderRoutes([{ path: '*', element: <Remember picked={{ car_device_id: undefined }} /> }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(api.paths()).toEqual([]);
    expect(useSession.getState().car_device_id).toBeNull();
  });
});

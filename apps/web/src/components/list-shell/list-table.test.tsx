import { errorMessages } from '@fleet/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiClientError } from '../../lib/api-client';
import { renderRoutes, renderWithProviders } from '../../testing/render';
import { ListTable, type ListColumn } from './list-table';

type Row = { id: string; name: string };
const columns: ListColumn<Row>[] = [
  { sortKey: 'id', label: 'ID', render: (r) => r.id },
  { label: '名前', render: (r) => r.name },
];
const rows: Row[] = [
  { id: 'A1', name: '青木' },
  { id: 'B2', name: '馬場' },
];
const base = { columns, rows, rowKey: (r: Row) => r.id, pending: false, empty: 'ありません。' };

describe('ListTable', () => {
  it('draws a row a record, sorts by a sortable header, and pages', async () => {
    const onSort = vi.fn();
    const onPage = vi.fn();
    renderWithProviders(
      <ListTable
        {...base}
        sort={{ item: 'id', dir: 'desc', onSort }}
        paging={{ page: 0, total: 45, size: 20, pageRange: 20, onChange: onPage }}
      />,
    );
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('row', { name: /B2 馬場/ })).toBeInTheDocument();
    const header = screen.getByRole('columnheader', { name: /ID/ });
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: '名前' })).not.toHaveAttribute('aria-sort');
    await userEvent.click(within(header).getByRole('button'));
    expect(onSort).toHaveBeenCalledWith('id');
    expect(screen.getByTestId('list-range')).toHaveTextContent('全45件中 1〜20件を表示');
    await userEvent.click(screen.getByRole('button', { name: '2ページ' }));
    expect(onPage).toHaveBeenCalledWith(1);
  });

  it('links the first cell and the whole row where a row leads somewhere', async () => {
    const { router } = renderRoutes([
      { path: '/', element: <ListTable {...base} rowLink={(r) => `/items/${r.id}`} /> },
      { path: '/items/:id', element: <p>詳細</p> },
    ]);
    expect(screen.getByRole('link', { name: 'A1' })).toHaveAttribute('href', '/items/A1');
    await userEvent.click(screen.getByText('馬場'));
    expect(router.state.location.pathname).toBe('/items/B2');
  });

  it('says so when there is nothing, and shows skeleton rows while loading', () => {
    const { unmount } = renderWithProviders(<ListTable {...base} rows={[]} />);
    expect(screen.getByText('ありません。')).toBeInTheDocument();
    expect(screen.queryByTestId('list-range')).toBeNull();
    unmount();
    renderWithProviders(<ListTable {...base} rows={[]} pending />);
    expect(screen.queryByText('ありません。')).toBeNull();
    expect(screen.getAllByRole('row')).toHaveLength(6);
  });

  it("shows the server's reason for a failure, and the §8 message after a lost session", () => {
    const { unmount } = renderWithProviders(
      <ListTable {...base} error={new ApiClientError(403, 'FORBIDDEN', 'この操作を行う権限がありません。')} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('この操作を行う権限がありません。');
    expect(screen.queryByRole('table')).toBeNull();
    unmount();
    renderWithProviders(<ListTable {...base} error={new ApiClientError(401, 'UNAUTHORIZED', 'x')} />);
    expect(screen.getByRole('alert')).toHaveTextContent(errorMessages.fetchFailed);
  });

  it('picks rows by their checkboxes and the page by the header’s, without following the row link', async () => {
    const onChange = vi.fn();
    const selection = { selected: new Set(['A1']), onChange, label: (r: Row) => r.name };
    renderRoutes(
      [
        { path: '/', element: <ListTable {...base} rowLink={(r) => `/x/${r.id}`} selection={selection} /> },
        { path: '/x/:id', element: <p>詳細</p> },
      ],
      '/',
    );
    const page = screen.getByRole('checkbox', { name: 'このページの行をすべて選択' });
    expect(page).toHaveAttribute('data-indeterminate', 'true');
    await userEvent.click(screen.getByRole('checkbox', { name: '馬場 を選択' }));
    expect(onChange).toHaveBeenLastCalledWith(new Set(['A1', 'B2']));
    expect(screen.queryByText('詳細')).not.toBeInTheDocument();
    await userEvent.click(page);
    expect(onChange).toHaveBeenLastCalledWith(new Set(['A1', 'B2']));
  });
});

import { errorMessages } from '@fleet/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiClientError } from '../../lib/api-client';
import { renderWithProviders } from '../../testing/render';
import { DetailActions, DetailShell, Field } from './detail-shell';

type Rec = { id: string; memo: string; isDelete: boolean; created_at: string; updated_at: string };
const record: Rec = {
  id: 'R1',
  memo: '',
  isDelete: true,
  created_at: '2024-04-01T01:02:03Z',
  updated_at: '2024-05-01T01:02:03Z',
};
const rows = (r: Rec) => [
  { label: 'ID', value: r.id },
  { label: 'メモ', value: r.memo },
];
const loaded = { data: record, error: null, isError: false };

describe('DetailShell', () => {
  it("lists the record's fields, '—' for an empty one, then its state and time stamps", () => {
    renderWithProviders(<DetailShell query={loaded} rows={rows} children={(r) => <p>子:{r.id}</p>} />);
    const value = (label: string) => screen.getByText(label).nextElementSibling;
    expect(value('ID')).toHaveTextContent('R1');
    expect(value('メモ')).toHaveTextContent('—');
    expect(value('状態')).toHaveTextContent('削除済み');
    expect(value('登録日時')).toHaveTextContent('2024/04/01');
    expect(value('更新日時')).toHaveTextContent('2024/05/01');
    expect(screen.getByText('子:R1')).toBeInTheDocument();
  });

  it('says not found when no record is selected, whatever the query holds', () => {
    renderWithProviders(<DetailShell query={loaded} missing rows={rows} />);
    expect(screen.getByRole('alert')).toHaveTextContent(errorMessages.notFound);
    expect(screen.queryByText('R1')).toBeNull();
  });

  it("shows the server's reason for a failure", () => {
    const error = new ApiClientError(404, 'NOT_FOUND', '該当する顧客が見つかりません。');
    renderWithProviders(<DetailShell query={{ data: undefined, error, isError: true }} rows={rows} />);
    expect(screen.getByRole('alert')).toHaveTextContent('該当する顧客が見つかりません。');
  });

  it('shows no fields while loading', () => {
    renderWithProviders(<DetailShell query={{ data: undefined, error: null, isError: false }} rows={rows} />);
    expect(screen.queryByText('ID')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('Field', () => {
  it("puts the label beside the value when inline, and '—' for nothing", () => {
    renderWithProviders(
      <>
        <Field inline label="速度">
          {''}
        </Field>
        <Field label="車種">軽トラック</Field>
      </>,
    );
    expect(screen.getByText('速度').nextElementSibling).toHaveTextContent('—');
    expect(screen.getByText('車種').nextElementSibling).toHaveTextContent('軽トラック');
  });
});

describe('DetailActions', () => {
  const remove = { noun: '顧客', subject: '山田 さん', onToggle: () => Promise.resolve() };

  it("offers 編集 and 削除 for a live record, after the screen's own buttons", () => {
    renderWithProviders(
      <DetailActions isDelete={false} editTo="/edit/1" remove={remove}>
        <button>独自</button>
      </DetailActions>,
    );
    expect(screen.getByRole('link', { name: '編集' })).toHaveAttribute('href', '/edit/1');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['独自', '削除']);
  });

  it('offers only 復元 for a deleted record, and nothing that was not given', () => {
    const { unmount } = renderWithProviders(<DetailActions isDelete editTo="/edit/1" remove={remove} />);
    expect(screen.queryByRole('link', { name: '編集' })).toBeNull();
    expect(screen.getByRole('button', { name: '復元' })).toBeInTheDocument();
    unmount();
    renderWithProviders(<DetailActions isDelete={false} editTo={false} remove={false} />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

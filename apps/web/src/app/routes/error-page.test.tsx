import { screen } from '@testing-library/react';
import { data } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../testing/render';
import { ErrorPage } from './error-page';

describe('ErrorPage (docs/product.md §2, §8)', () => {
  it('says the page does not exist on 404 and links back to the vehicle list', async () => {
    renderRoutes([{ path: '/', element: <p>top</p>, ErrorBoundary: ErrorPage }], '/missing');
    expect(await screen.findByRole('heading', { name: 'このページは存在しません。' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップへ戻る' })).toHaveAttribute('href', '/car/car_list');
  });
  it('shows the message of another error and links to login', async () => {
    renderRoutes([
      {
        path: '/',
        loader: () => {
          throw data('アクセスが拒否されました。', { status: 403 });
        },
        element: <p>never</p>,
        ErrorBoundary: ErrorPage,
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'アクセスが拒否されました。' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ログイン画面へ' })).toHaveAttribute('href', '/');
  });
  it('falls back to the generic message', async () => {
    renderRoutes([
      {
        path: '/',
        loader: () => {
          throw new Error('boom');
        },
        element: <p>never</p>,
        ErrorBoundary: ErrorPage,
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'エラーが発生しました。' })).toBeInTheDocument();
  });
});

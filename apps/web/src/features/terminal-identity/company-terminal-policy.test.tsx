import { terminalIdentityTexts as T } from '@fleet/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { serveApi } from '../../testing/serve-api';
import { CompanyTerminalPolicy } from './company-terminal-policy';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CompanyTerminalPolicy: the new-address alert of a company', () => {
  it('shows the setting off by default and saves it switched on', async () => {
    const api = serveApi({
      '/api/company_terminal_policy': [
        [200, { company_id: 'company-a', alert_new_terminal_address: false }],
        [200, { company_id: 'company-a', alert_new_terminal_address: true }],
      ],
      '/api/company_terminal_policy_update': [200, { ok: true }],
    });
    renderWithProviders(<CompanyTerminalPolicy companyId="company-a" />);
    const toggle = await screen.findByRole('switch');
    await vi.waitFor(() => expect(toggle).toBeEnabled());
    expect(screen.getByText(T.policyLabel)).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    expect(await screen.findByText(T.policySaved)).toBeInTheDocument();
    expect(api.bodiesOf('/api/company_terminal_policy_update')).toEqual([
      { company_id: 'company-a', alert_new_terminal_address: true },
    ]);
  });
});

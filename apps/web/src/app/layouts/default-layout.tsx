import { AppShell, Burger, Group, LoadingOverlay, Menu, UnstyledButton, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconHistory, IconKey, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, Outlet } from 'react-router';
import { Copyright } from '../../components/copyright';
import { Logo } from '../../components/logo';
import { AlertBadge } from '../../features/alerts/alert-badge';
import { useLogout } from '../../features/auth/use-logout';
import { totpStatusQuery } from '../../features/totp/api';
import { useLoadingOverlay } from '../../lib/loading-overlay';
import { paths } from '../../lib/paths';
import { actorOf, useSession } from '../../lib/session-store';
import { capabilities } from '@fleet/contract';
import { shellTexts } from '../../lib/texts';
import { ScreenGuard } from '../screen-guard';
import { SideMenu } from './side-menu';

// The setup's form and QR code load only for an account that must set 二段階認証 up.
const TotpSetupRequired = lazy(() =>
  import('../../features/totp/totp-setup-required').then((m) => ({ default: m.TotpSetupRequired })),
);

/** Default layout (docs/product.md §2): header 60px (40px up to 768px), fixed 200px side menu, loading overlay. */
export function Component() {
  const session = useSession();
  const actor = actorOf(session);
  const [mobileOpened, mobile] = useDisclosure(false);
  const overlay = useLoadingOverlay((s) => s.visible);
  const onLogout = useLogout();
  // The company requires 二段階認証 and this account has none: its setup instead of any screen.
  const totp = useQuery({ ...totpStatusQuery(), enabled: !!actor });
  const mustSetUpTotp = !!totp.data?.required && !totp.data.enabled;
  // Its recovery codes, once the setup is done: shown before the screens open.
  const [newRecoveryCodes, setNewRecoveryCodes] = useState<string[]>();
  if (!actor) return null;

  return (
    <AppShell
      header={{ height: { base: 40, sm: 60 } }}
      navbar={{ width: 200, breakpoint: 'sm', collapsed: { mobile: !mobileOpened, desktop: !session.isMenuActive } }}
      padding="md"
    >
      <AppShell.Header bg="brand.8" withBorder={false}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={mobileOpened}
              onClick={mobile.toggle}
              hiddenFrom="sm"
              size="sm"
              color="white"
              aria-label={shellTexts.header.toggleMenu}
            />
            <Burger
              opened={session.isMenuActive}
              onClick={session.toggleMenu}
              visibleFrom="sm"
              size="sm"
              color="white"
              aria-label={shellTexts.header.toggleMenu}
            />
            <Logo to={paths.car.list} inverted />
          </Group>
          <Group gap="md" wrap="nowrap">
            <AlertBadge />
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                {/* The accessible name holds the name shown (WCAG 2.5.3, label in name). */}
                <UnstyledButton c="white" aria-label={`${session.name ?? ''} アカウントメニュー`.trim()}>
                  <Group gap={6} wrap="nowrap">
                    <IconUser size={18} />
                    <Text size="sm" visibleFrom="sm" c="white">
                      {session.name}
                    </Text>
                    <IconChevronDown size={14} />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  component={Link}
                  to={paths.account.detail(actor.account_id)}
                  leftSection={<IconUser size={16} />}
                >
                  {shellTexts.header.ownAccount}
                </Menu.Item>
                <Menu.Item component={Link} to={paths.account.passwordReset} leftSection={<IconKey size={16} />}>
                  {shellTexts.header.changePassword}
                </Menu.Item>
                {capabilities(actor).superAdmin && (
                  <Menu.Item component={Link} to={paths.auditLog} leftSection={<IconHistory size={16} />}>
                    操作履歴
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <SideMenu actor={actor} name={session.name ?? ''} onLogout={onLogout} onNavigate={mobile.close} />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--app-surface)" style={{ display: 'flex', flexDirection: 'column' }}>
        <LoadingOverlay visible={overlay} zIndex={300} overlayProps={{ blur: 1 }} />
        <div style={{ flex: 1 }}>
          {mustSetUpTotp || newRecoveryCodes ? (
            <Suspense>
              <TotpSetupRequired
                codes={newRecoveryCodes}
                onEnabled={setNewRecoveryCodes}
                onDone={() => setNewRecoveryCodes(undefined)}
              />
            </Suspense>
          ) : (
            <ScreenGuard>
              <Outlet />
            </ScreenGuard>
          )}
        </div>
        <Copyright />
      </AppShell.Main>
    </AppShell>
  );
}

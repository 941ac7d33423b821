import { capabilities, roleLabel, type Actor } from '@fleet/contract';
import { Box, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconBuildingStore, IconCar, IconDeviceMobile, IconLogout, IconSettings, IconUsers } from '@tabler/icons-react';
import { useLocalStorage } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import { ownGroupsLimitedQuery } from '../../features/account/api';
import { paths } from '../../lib/paths';
import { shellTexts } from '../../lib/texts';

const t = shellTexts.menu;

interface MenuGroup {
  label: string;
  icon: ReactNode;
  items: { label: string; to: string }[];
}

/**
 * The side menu of docs/product.md §2, exactly the entries each role may see (§6); an account limited to
 * vehicle groups has no group screen (it may not change groups).
 */
export function menuFor(actor: Actor, opts: { groupsLimited?: boolean } = {}): MenuGroup[] {
  const caps = capabilities(actor);
  const groups: MenuGroup[] = [
    {
      label: t.cars,
      icon: <IconCar size={18} />,
      items: [
        { label: t.carList, to: paths.car.list },
        { label: t.carMap, to: paths.car.map },
        { label: t.report, to: paths.car.report },
        { label: t.zones, to: paths.car.zones },
        ...(caps.editCarsAndCustomers && !opts.groupsLimited ? [{ label: t.groups, to: paths.car.groups }] : []),
        { label: t.alerts, to: paths.alerts },
        ...(caps.registerCarsAndCustomers
          ? [
              { label: t.carAdd, to: paths.car.add },
              { label: t.wizard, to: paths.car.wizard },
            ]
          : []),
      ],
    },
    {
      label: t.customers,
      icon: <IconUsers size={18} />,
      items: [
        { label: t.customerList, to: paths.car.userList },
        ...(caps.registerCarsAndCustomers ? [{ label: t.customerAdd, to: paths.car.userAdd }] : []),
      ],
    },
  ];
  if (caps.devicesAndCompanies) {
    groups.push(
      {
        label: t.devices,
        icon: <IconDeviceMobile size={18} />,
        items: [
          { label: t.deviceList, to: paths.device.list },
          { label: t.deviceAdd, to: paths.device.add },
        ],
      },
      {
        label: t.companies,
        icon: <IconBuildingStore size={18} />,
        items: [
          { label: t.companyList, to: paths.company.list },
          { label: t.companyAdd, to: paths.company.add },
        ],
      },
    );
  }
  groups.push({
    label: t.settings,
    icon: <IconSettings size={18} />,
    items: [
      ...(caps.manageAccounts
        ? [
            { label: t.accountList, to: paths.account.list },
            { label: t.accountAdd, to: paths.account.add },
          ]
        : []),
      { label: t.notify, to: paths.notify },
      ...(caps.notifyHistory ? [{ label: t.notifyHistory, to: paths.notifyHistory }] : []),
      ...(caps.manageWebhooks ? [{ label: t.webhooks, to: paths.webhooks }] : []),
      ...(caps.tripSettings ? [{ label: t.tripSettings, to: paths.tripSettings }] : []),
    ],
  });
  return groups;
}

/** Entries of 13 px on about 21 px: the super admin's twenty-odd entries and six groups fit 768 px high. */
const itemStyles = { label: { fontSize: 13, lineHeight: 1.35 } };

const commonLength = (a: string, b: string) => {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
};

/** A screen's path without its id and its action: /car/car_user_edit/u-1 → /car/car_user. */
const stemOf = (path: string) =>
  path
    .split('/')
    .slice(0, 3)
    .join('/')
    .replace(/[_/](list|add|detail|edit)$/, '');

/**
 * The group of the screen on show: the one with an entry of the same screen family (/car/car_user_edit/… →
 * 顧客管理, /car/device/detail/… → GPS端末管理), else the entry whose path shares the longest start with it.
 */
export function activeGroupOf(groups: MenuGroup[], pathname: string): string | undefined {
  const stem = stemOf(pathname);
  const family = groups.find((g) => g.items.some((i) => stemOf(i.to) === stem));
  if (family) return family.label;
  const area = `/${pathname.split('/')[1] ?? ''}/`;
  let best: { label: string; length: number } | undefined;
  for (const g of groups)
    for (const i of g.items) {
      const length = i.to.startsWith(area) ? commonLength(pathname, i.to) : 0;
      if (length > (best?.length ?? 0)) best = { label: g.label, length };
    }
  return best?.label;
}

export function SideMenu({
  actor,
  name,
  onLogout,
  onNavigate,
}: {
  actor: Actor;
  name: string;
  onLogout(): void;
  onNavigate(): void;
}) {
  const groupsLimited = useQuery(ownGroupsLimitedQuery()).data ?? false;
  const groups = menuFor(actor, { groupsLimited });
  const { pathname } = useLocation();
  const active = activeGroupOf(groups, pathname);
  // Groups fold by their header and the choice is kept; moving to a screen opens its group.
  const [closed, setClosed] = useLocalStorage<string[]>({
    key: 'fleet-console/menu-closed',
    defaultValue: [],
    getInitialValueInEffect: false,
  });
  useEffect(() => {
    if (active) setClosed((c) => (c.includes(active) ? c.filter((l) => l !== active) : c));
  }, [active, setClosed]);
  const toggle = (label: string) =>
    setClosed((c) => (c.includes(label) ? c.filter((l) => l !== label) : [...c, label]));
  return (
    <Stack gap={0} h="100%">
      <Box px="md" py={6} bg="var(--mantine-color-brand-light)">
        <Text size="xs" c="dimmed">
          {roleLabel(actor.role, actor.company_id)}
        </Text>
        <Text fw={700} size="sm" truncate="end" data-testid="menu-user-name">
          {name}
        </Text>
      </Box>
      {/* Compact enough that every entry of the longest menu (the super admin's) fits 1366×768 with room for a few
          more; folded groups make room, and on shorter screens the list scrolls with a visible bar, above a
          logout that never covers it. */}
      <ScrollArea
        style={{ flex: 1, minHeight: 0 }}
        type="auto"
        offsetScrollbars="y"
        scrollbarSize={6}
        component="nav"
        aria-label="メインメニュー"
      >
        {groups.map((g) => (
          <NavLink
            key={g.label}
            component="button"
            label={g.label}
            leftSection={g.icon}
            opened={!closed.includes(g.label)}
            onChange={() => toggle(g.label)}
            childrenOffset={22}
            fw={600}
            py={1}
          >
            {g.items.map((item) => (
              <NavLink
                key={item.to}
                component={RouterNavLink}
                to={item.to}
                label={item.label}
                onClick={onNavigate}
                end
                py={2}
                styles={itemStyles}
              />
            ))}
          </NavLink>
        ))}
      </ScrollArea>
      <NavLink
        component="button"
        label={t.logout}
        leftSection={<IconLogout size={18} />}
        onClick={onLogout}
        c="red.9"
        py={6}
        style={{ borderTop: '1px solid var(--mantine-color-gray-3)', flexShrink: 0 }}
      />
    </Stack>
  );
}

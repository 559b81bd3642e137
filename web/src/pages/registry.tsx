import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { ApiOutlined, BookOutlined, CheckSquareOutlined, PartitionOutlined, SettingOutlined, TeamOutlined } from '@ant-design/icons';
import { TagsOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { ContactsOutlined } from '@ant-design/icons';
import { WhatsAppOutlined } from '@ant-design/icons';
import type { Plan, SessionUser } from '../api/types';
import { ConnectionsBadge } from './connections/connections-badge';

export interface GateContext {
  user: SessionUser;
  plan: Plan | null;
  /** The local 'cshow' flag that reveals the campaign pages. */
  cshow: boolean;
}

export type Gate = (ctx: GateContext) => boolean;

export const isAdmin: Gate = ({ user }) => user.profile === 'admin' || user.super;
export const isSuper: Gate = ({ user }) => user.super;

export interface PageDefinition {
  /** wouter pattern, e.g. '/users' or '/tickets/:ticketId?' */
  path: string;
  component: LazyExoticComponent<ComponentType>;
  gate?: Gate;
  /** The message shown before redirecting home when the gate is closed. */
  deniedKey?: 'session.accessDenied' | 'session.noPermission';
  menu?: {
    href: string;
    labelKey: string;
    icon: ReactNode;
    section: 'main' | 'admin';
    /** Shown after the label (e.g. a warning badge); a component, so it may use hooks. */
    badge?: ComponentType;
  };
}

/**
 * Every private page of the app: its route, its gate, and its menu entry. Menu and routes are both
 * made from this list, so a page and its entry cannot disagree; pages that do not exist yet are
 * simply not here.
 */
export const pages: PageDefinition[] = [
  {
    // The inbox is the first entry, so '/' opens it.
    path: '/tickets/:ticketId?',
    component: lazy(() => import('./tickets/tickets-page')),
    menu: { href: '/tickets', labelKey: 'menu.tickets', icon: <WhatsAppOutlined />, section: 'main' },
  },
  {
    path: '/quick-messages',
    component: lazy(() => import('./quick-messages/quick-messages-page')),
    menu: { href: '/quick-messages', labelKey: 'menu.quickMessages', icon: <ThunderboltOutlined />, section: 'main' },
  },
  {
    path: '/contacts',
    component: lazy(() => import('./contacts/contacts-page')),
    menu: { href: '/contacts', labelKey: 'menu.contacts', icon: <ContactsOutlined />, section: 'main' },
  },
  {
    path: '/tags',
    component: lazy(() => import('./tags/tags-page')),
    menu: { href: '/tags', labelKey: 'menu.tags', icon: <TagsOutlined />, section: 'main' },
  },
  {
    path: '/todolist',
    component: lazy(() => import('./todolist/todolist-page')),
    menu: { href: '/todolist', labelKey: 'menu.todolist', icon: <CheckSquareOutlined />, section: 'main' },
  },
  {
    path: '/helps',
    component: lazy(() => import('./helps/helps-page')),
    menu: { href: '/helps', labelKey: 'menu.helps', icon: <BookOutlined />, section: 'main' },
  },
  {
    // Every user reads the connections; the admin section of the menu lists them for admins only.
    path: '/connections',
    component: lazy(() => import('./connections/connections-page')),
    menu: { href: '/connections', labelKey: 'menu.connections', icon: <ApiOutlined />, section: 'admin', badge: ConnectionsBadge },
  },
  {
    path: '/queues',
    component: lazy(() => import('./queues/queues-page')),
    gate: isAdmin,
    deniedKey: 'session.accessDenied',
    menu: { href: '/queues', labelKey: 'menu.queues', icon: <PartitionOutlined />, section: 'admin' },
  },
  {
    path: '/users',
    component: lazy(() => import('./users/users-page')),
    gate: isAdmin,
    deniedKey: 'session.accessDenied',
    menu: { href: '/users', labelKey: 'menu.users', icon: <TeamOutlined />, section: 'admin' },
  },
  {
    path: '/settings',
    component: lazy(() => import('./settings/settings-page')),
    gate: isAdmin,
    deniedKey: 'session.accessDenied',
    menu: { href: '/settings', labelKey: 'menu.settings', icon: <SettingOutlined />, section: 'admin' },
  },
];

export function visiblePages(ctx: GateContext): PageDefinition[] {
  return pages.filter((page) => !page.gate || page.gate(ctx));
}

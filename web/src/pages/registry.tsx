import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { ApiOutlined, BookOutlined, CheckSquareOutlined, PartitionOutlined, SettingOutlined, TeamOutlined } from '@ant-design/icons';
import { TagsOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { ContactsOutlined, DashboardOutlined } from '@ant-design/icons';
import { WhatsAppOutlined } from '@ant-design/icons';
import { registerLazyTranslations, type LazyTranslations } from '../i18n';
import type { Ticket } from '../api/types';
import { isAdmin, type Gate, type GateContext } from './gates';
import { ConnectionsBadge } from './connections/connections-badge';
// Last: the plugins' entries import this module back through atende/web, and call its gates as they load.
import pluginWebs from 'virtual:atende/plugin-webs';

export interface PageDefinition {
  /** wouter pattern, e.g. '/users' or '/tickets/:ticketId?' */
  path: string;
  component: LazyExoticComponent<ComponentType>;
  gate?: Gate;
  /** The message shown before redirecting home when the gate is closed. */
  deniedKey?: 'session.accessDenied' | 'session.noPermission';
  menu?: {
    href: string;
    /** A key of the app's common strings; in a plugin's page, a key of the plugin's own namespace. */
    labelKey: string;
    icon: ReactNode;
    section: 'main' | 'admin';
    /** Shown after the label (e.g. a warning badge); a component, so it may use hooks. */
    badge?: ComponentType;
    /** A plugin's entry goes just before the entry with this href (at the end of its section without one). */
    before?: string;
  };
}

/**
 * Every private page of the app: its route, its gate, and its menu entry. Menu and routes are both
 * made from this list, so a page and its entry cannot disagree; pages that do not exist yet are
 * simply not here.
 */
const corePages: PageDefinition[] = [
  {
    // The first entry an admin may see, so '/' opens it for admins.
    path: '/dashboard',
    component: lazy(() => import('./dashboard/dashboard-page')),
    gate: isAdmin,
    deniedKey: 'session.accessDenied',
    menu: { href: '/dashboard', labelKey: 'menu.dashboard', icon: <DashboardOutlined />, section: 'main' },
  },
  {
    // The first entry of everyone else, so '/' opens the inbox for them.
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

/** What a composer action's panel gets: the ticket the agent writes to (open), and how to close itself. */
export interface ComposerActionProps {
  ticket: Ticket;
  onClose(): void;
}

/**
 * A plugin's tool in the ticket composer, beside attach: the host shows its button (an item of the
 * composer's "more" menu on a narrow pane) while the agent may write to the ticket, and mounts its
 * panel (the plugin's dialog) when it is chosen, until the panel calls onClose.
 */
export interface ComposerAction {
  /** Unique within the plugin. */
  key: string;
  /** The button's label and tooltip: a key of the plugin's namespace. */
  labelKey: string;
  icon: ReactNode;
  /** Mounted while open; a lazy component loads its chunk when first chosen. */
  panel: ComponentType<ComposerActionProps> | LazyExoticComponent<ComponentType<ComposerActionProps>>;
  /** Who sees it (isAdmin, planAllows…); everyone when absent. */
  gate?: Gate;
}

/**
 * What a plugin's web/index.tsx exports by default (DESIGN §7). The admin is built with every
 * installed plugin's web folder (npm run build: the built-in ones; atende build-web: all).
 */
export interface PluginWeb {
  /** The plugin's name, and the i18n namespace of its strings: its pages' menu labels are keys of it. */
  name: string;
  /** The plugin's strings in one language, e.g. `(language) => import(`./i18n/${language}.ts`)`: loaded when that language first needs them. */
  translations: LazyTranslations;
  /** Its pages, each with its route, gate and menu entry (label, icon, section, badge, place). */
  pages: PageDefinition[];
  /** What it adds to the top bar, before the notifications bell (e.g. a pop-over of its own). */
  header?: HeaderItem[];
  /** Its tools in the ticket composer, in this order after the core's. */
  composerActions?: ComposerAction[];
  /** Fields it adds to the core's forms (a connection's Integrações tab, a queue's dialog). */
  formFields?: FormField[];
  /** Sections it adds to a saved connection's dialog (Geral tab), outside the form: they save on their own. */
  connectionSections?: ConnectionSection[];
}

/** What a connection section gets: the saved connection's id. */
export interface ConnectionSectionProps {
  connectionId: number;
}

/** A plugin's part of the connection dialog that is no field of the connection (its own records, its own API). */
export interface ConnectionSection {
  key: string;
  component: ComponentType<ConnectionSectionProps> | LazyExoticComponent<ComponentType<ConnectionSectionProps>>;
  /** Who sees it (planAllows…); everyone when absent. */
  gate?: Gate;
}

/** The core forms a plugin may add a field to. */
export type CoreForm = 'connection' | 'queue';

/** What a form field's component gets: the name it owns in the form (and in the API's body and record). */
export interface FormFieldProps {
  name: string;
}

/**
 * A plugin's field in a core form: the component renders its own `Form.Item name={name}` inside
 * the core form (the antd form context), so the value is loaded from the record's `name`, sent in
 * the body as `name`, and validated by the core's API (e.g. `promptId` of a queue).
 */
export interface FormField {
  form: CoreForm;
  name: string;
  component: ComponentType<FormFieldProps> | LazyExoticComponent<ComponentType<FormFieldProps>>;
  /** Who sees it (planAllows…); everyone when absent. A hidden field is neither loaded nor sent. */
  gate?: Gate;
}

/** A plugin's top bar item: a component (it may use hooks and the plugin's strings), shown to whom its gate lets through. */
export interface HeaderItem {
  component: ComponentType;
  gate?: Gate;
}

/** Types a plugin's web entry: `export default definePluginWeb({ name, translations, pages })`. */
export function definePluginWeb(web: PluginWeb): PluginWeb {
  return web;
}

/** The plugin's pages, their menu labels read from the plugin's namespace. */
function pagesOf(web: PluginWeb): PageDefinition[] {
  return web.pages.map((page) => (page.menu ? { ...page, menu: { ...page.menu, labelKey: `${web.name}:${page.menu.labelKey}` } } : page));
}

for (const web of pluginWebs) registerLazyTranslations(web.name, web.translations);

/** The plugins' namespaces: the menu loads them for its labels. */
export const pluginNamespaces = pluginWebs.map((web) => web.name);

function withPluginPages(core: PageDefinition[], plugins: PageDefinition[]): PageDefinition[] {
  const all = [...core];
  for (const page of plugins) {
    const at = page.menu?.before ? all.findIndex((p) => p.menu?.href === page.menu?.before) : -1;
    all.splice(at === -1 ? all.length : at, 0, page);
  }
  return all;
}

export const pages: PageDefinition[] = withPluginPages(corePages, pluginWebs.flatMap(pagesOf));

/** The plugins' top bar items, in plugin order. */
export const headerItems: HeaderItem[] = pluginWebs.flatMap((web) => web.header ?? []);

export function visiblePages(ctx: GateContext): PageDefinition[] {
  return pages.filter((page) => !page.gate || page.gate(ctx));
}

/** Every plugin's composer actions, keys and labels in the plugin's namespace, in plugin order. */
export const composerActions: ComposerAction[] = pluginWebs.flatMap((web) =>
  (web.composerActions ?? []).map((action: ComposerAction) => ({ ...action, key: `${web.name}:${action.key}`, labelKey: `${web.name}:${action.labelKey}` })),
);

export function visibleComposerActions(ctx: GateContext): ComposerAction[] {
  return composerActions.filter((action) => !action.gate || action.gate(ctx));
}

/** Every plugin's fields of the core forms, in plugin order. */
export const formFields: FormField[] = pluginWebs.flatMap((web) => web.formFields ?? []);

export function visibleFormFields(ctx: GateContext, form: CoreForm): FormField[] {
  return formFields.filter((field) => field.form === form && (!field.gate || field.gate(ctx)));
}

const connectionSections: ConnectionSection[] = pluginWebs.flatMap((web) => web.connectionSections ?? []);

/** The plugins' sections of the connection dialog that this user's plan and profile let through. */
export function visibleConnectionSections(ctx: GateContext): ConnectionSection[] {
  return connectionSections.filter((section) => !section.gate || section.gate(ctx));
}

export { isAdmin, isSuper, type Gate, type GateContext } from './gates';

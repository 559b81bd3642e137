import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, refreshSession, setSignedOutHandler, setToken } from '../api/client';
import type { LoginAnswer, Plan, SessionUser, Setting } from '../api/types';
import type { GateContext } from '../pages/gates';
import { RealtimeClient } from '../realtime/realtime-client';

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

interface AuthState {
  status: SessionStatus;
  user: SessionUser | null;
  plan: Plan | null;
  /** The server plugins this installation turned on (the `pluginActive` gate reads them). */
  plugins: readonly string[];
  realtime: RealtimeClient;
  login(email: string, password: string): Promise<SessionUser>;
  logout(): Promise<void>;
  /** Replaces the session user after the user edits their own profile. */
  updateUser(user: SessionUser): void;
}

const AuthContext = createContext<AuthState | null>(null);

/** The browser storage keys the spec names, cleared together when a session ends. */
function rememberSession(user: SessionUser): void {
  localStorage.setItem('companyId', String(user.companyId));
  localStorage.setItem('userId', String(user.id));
}

function forgetSession(): void {
  setToken(null);
  localStorage.removeItem('companyId');
  localStorage.removeItem('userId');
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [user, setUser] = useState<SessionUser | null>(null);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [plugins, setPlugins] = useState<readonly string[]>([]);
  const signOutRef = useRef<() => void>(() => {});
  const realtime = useMemo(() => new RealtimeClient(() => signOutRef.current()), []);
  const queryClient = useQueryClient();

  const signedOut = useCallback(() => {
    realtime.stop();
    forgetSession();
    // The next user of this tab must not see a single record of this one.
    queryClient.clear();
    setUser(null);
    setPlan(null);
    setPlugins([]);
    setStatus('signedOut');
  }, [realtime, queryClient]);
  signOutRef.current = signedOut;

  // Frames sent while the socket was down are lost: everything on screen loads again, once.
  useEffect(() => realtime.onReconnect(() => void queryClient.invalidateQueries()), [realtime, queryClient]);

  const signedIn = useCallback(
    async (sessionUser: SessionUser) => {
      rememberSession(sessionUser);
      const [companyPlan, active] = await Promise.all([
        api.get<Plan>(`/companies/listPlan/${sessionUser.companyId}`).catch(() => null),
        api.get<{ plugins: string[] }>('/plugins/active').then((answer) => answer.plugins, () => []),
      ]);
      setUser(sessionUser);
      setPlan(companyPlan);
      setPlugins(active);
      setStatus('signedIn');
      realtime.start();
    },
    [realtime],
  );

  useEffect(() => {
    setSignedOutHandler(signedOut);
    let cancelled = false;
    refreshSession()
      .catch(() => null)
      .then((result) => {
        if (cancelled) return;
        if (result) void signedIn(result.user as SessionUser);
        else signedOut();
      });
    return () => {
      cancelled = true;
    };
  }, [signedIn, signedOut]);

  // Single session: another login of this user ends this one.
  useEffect(() => {
    if (!user) return;
    const offAuth = realtime.on(`company-${user.companyId}-auth`, (data) => {
      const event = data as { action?: string; user?: { id: number } };
      if (event.action !== 'login' || event.user?.id !== user.id) return;
      void message.error(t('session.otherComputer'));
      window.setTimeout(() => {
        localStorage.clear();
        window.location.reload();
      }, 1000);
    });
    const offUser = realtime.on(`company-${user.companyId}-user`, (data) => {
      const event = data as { action?: string; user?: SessionUser; userId?: number };
      if (event.action === 'update' && event.user?.id === user.id) setUser((current) => (current ? { ...current, ...event.user } : current));
      if (event.action === 'delete' && event.userId === user.id) signedOut();
    });
    // The company's settings travel with the session (its timezone is every page's clock).
    const offSettings = realtime.on(`company-${user.companyId}-settings`, (data) => {
      const { action, setting } = data as { action?: string; setting?: Setting };
      if (action !== 'update' || !setting) return;
      setUser((current) => {
        if (!current) return current;
        const settings = [...current.company.settings.filter((s) => s.key !== setting.key), { key: setting.key, value: setting.value }];
        return { ...current, company: { ...current.company, settings } };
      });
    });
    return () => {
      offAuth();
      offUser();
      offSettings();
    };
  }, [user, realtime, message, t, signedOut]);

  const login = useCallback(
    async (email: string, password: string) => {
      const answer = await api.post<LoginAnswer>('/auth/login', { email, password }, { public: true });
      setToken(answer.token);
      await signedIn(answer.user);
      return answer.user;
    },
    [signedIn],
  );

  const logout = useCallback(async () => {
    await api.delete('/auth/logout').catch(() => undefined);
    signedOut();
  }, [signedOut]);

  const value = useMemo<AuthState>(
    () => ({ status, user, plan, plugins, realtime, login, logout, updateUser: setUser }),
    [status, user, plan, plugins, realtime, login, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

/** What the gates read (user, plan, the local 'cshow' flag, active plugins); null while signed out. */
export function useGateContext(): GateContext | null {
  const { user, plan, plugins } = useAuth();
  return useMemo(() => (user ? { user, plan, plugins, cshow: localStorage.getItem('cshow') !== null } : null), [user, plan, plugins]);
}

import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, ConfigProvider, Result, Spin, theme } from 'antd';
import ptBR from 'antd/es/locale/pt_BR';
import enUS from 'antd/es/locale/en_US';
import esES from 'antd/es/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/pt-br';
import 'dayjs/locale/es';
import { useTranslation } from 'react-i18next';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { createQueryClient } from './api/query-client';
import { AuthProvider, useAuth, useGateContext } from './auth/auth-provider';
import { MainLayout } from './layout/main-layout';
import { pages, visiblePages, type PageDefinition } from './pages/registry';
import { ThemePreferenceProvider, useThemePreference } from './theme/theme-preference';
import { useMediaQuery } from './theme/media-query';

const LoginPage = lazy(() => import('./pages/login/login-page'));
const RecoveryPage = lazy(() => import('./pages/recovery/recovery-page'));
const ChangePasswordPage = lazy(() => import('./pages/recovery/change-password-page'));
const SignupPage = lazy(() => import('./pages/signup/signup-page'));

const antdLocales = { 'pt-BR': ptBR, en: enUS, es: esES } as const;
const dayjsLocales = { 'pt-BR': 'pt-br', en: 'en', es: 'es' } as const;
const PERMISSION_REDIRECT_MS = 1000;

function Loading() {
  return (
    <div style={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

/**
 * Private pages: signed-out users go to /login; the finance flag replaces every page but billing's
 * (where the installation runs billing: without it there is no page to pay on).
 */
function Private({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { status, plugins } = useAuth();
  const [location] = useLocation();
  if (status === 'loading') return <Loading />;
  if (status === 'signedOut') return <Redirect to="/login" />;
  const financeFlagged = plugins.includes('billing') && localStorage.getItem('financeiro') === '1' && location !== '/financeiro';
  return (
    <MainLayout>
      {financeFlagged ? (
        <Alert
          type="warning"
          showIcon
          title={t('session.financeGuard')}
          description={
            <Link href="/financeiro" asChild>
              <Button type="primary" style={{ marginTop: 8 }}>
                {t('session.goToFinance')}
              </Button>
            </Link>
          }
          data-testid="finance-guard"
        />
      ) : (
        <Suspense fallback={<Loading />}>{children}</Suspense>
      )}
    </MainLayout>
  );
}

/** Public pages: signed-in users go to /. */
function Public({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === 'loading') return <Loading />;
  if (status === 'signedIn') return <Redirect to="/" />;
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

/** A page whose gate is closed: say so, then go home after 1 s. */
function Denied({ messageKey }: { messageKey: string }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  useEffect(() => {
    const timer = window.setTimeout(() => navigate('/'), PERMISSION_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate]);
  return <Result status="403" title={t(messageKey)} data-testid="denied" />;
}

function GatedPage({ page }: { page: PageDefinition }) {
  const gates = useGateContext();
  if (gates && page.gate && !page.gate(gates)) {
    return <Denied messageKey={page.deniedKey ?? 'session.accessDenied'} />;
  }
  const Component = page.component;
  return <Component />;
}

/** '/' opens the first page the user may see (the dashboard takes this place for admins once it exists). */
function Home() {
  const gates = useGateContext();
  if (!gates) return null;
  const first = visiblePages(gates).find((p) => p.menu);
  return first ? <Redirect to={first.menu!.href} /> : null;
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('notFound')}
      extra={
        <Link href="/" asChild>
          <Button>{t('goHome')}</Button>
        </Link>
      }
    />
  );
}

function Routes() {
  return (
    <Switch>
      <Route path="/login">
        <Public>
          <LoginPage />
        </Public>
      </Route>
      <Route path="/recovery">
        <Public>
          <RecoveryPage />
        </Public>
      </Route>
      <Route path="/signup">
        <Public>
          <SignupPage />
        </Public>
      </Route>
      <Route path="/signup/:planchooseid/plan">
        <Public>
          <SignupPage />
        </Public>
      </Route>
      <Route path="/change-password/:email/:hash">
        <Public>
          <ChangePasswordPage />
        </Public>
      </Route>
      {/* One shell for every private page: moving between pages keeps the layout (its drawer, its top bar) mounted. */}
      <Route>
        <Private>
          <Switch>
            <Route path="/">
              <Home />
            </Route>
            {pages.map((page) => (
              <Route key={page.path} path={page.path}>
                <GatedPage page={page} />
              </Route>
            ))}
            <Route>
              <NotFound />
            </Route>
          </Switch>
        </Private>
      </Route>
    </Switch>
  );
}

/** The page behind every screen takes the theme's colours: the login page is dark in dark mode too. */
function DocumentColors() {
  const { token } = theme.useToken();
  useEffect(() => {
    document.body.style.backgroundColor = token.colorBgLayout;
    document.body.style.color = token.colorText;
  }, [token.colorBgLayout, token.colorText]);
  return null;
}

function Themed({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { mode } = useThemePreference();
  // Dialogs, drawers and menus appear at once for people who asked their system for less motion.
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const language = (i18n.language in antdLocales ? i18n.language : 'pt-BR') as keyof typeof antdLocales;
  dayjs.locale(dayjsLocales[language]);
  return (
    <ConfigProvider
      locale={antdLocales[language]}
      theme={{ algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { colorPrimary: '#2563eb', motion: !reducedMotion } }}
    >
      <DocumentColors />
      <AntApp message={{ duration: 3, maxCount: 3 }}>{children}</AntApp>
    </ConfigProvider>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemePreferenceProvider>
      <Themed>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <Routes />
          </AuthProvider>
        </QueryClientProvider>
      </Themed>
    </ThemePreferenceProvider>
  );
}

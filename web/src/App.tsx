import { useSyncExternalStore } from 'react';
import { hasRole, type Role } from '../../domain/tenancy/roles';
import { trpc } from './api';
import { logOut } from './auth';
import { DemoBanner } from './components/DemoBanner';
import { ErrorBox, Loading } from './components/ui';
import { useLoad } from './hooks';
import { MeContext } from './me';
import { AcceptInvitePage } from './pages/AcceptInvite';
import { AuditLogPage } from './pages/AuditLog';
import { DetectionsPage } from './pages/Detections';
import { EmailPreferencesPage, VerifyEmailBanner, VerifyEmailPage } from './pages/EmailLinks';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/ResetPassword';
import { AccountPage, type AccountTab } from './pages/Account';
import { AccountsPage } from './pages/Accounts';
import { CompliancePage } from './pages/Compliance';
import { AttackPathsPage } from './pages/TenantAttackPaths';
import { OrganizationPage } from './pages/Organization';
import { OrganizationsPage } from './pages/Organizations';
import { OverviewPage } from './pages/Overview';
import { AlertRulesPage } from './pages/AlertRules';
import { AlertsPage } from './pages/Alerts';
import { BillingPage } from './pages/Billing';
import { LoginPage, SignupPage } from './pages/Login';
import { NotFoundPage } from './pages/NotFound';
import { TeamPage } from './pages/Team';
import { BASE, Link, navigate, usePath } from './router';
import { session } from './session';

const signedIn = () => session.bearer() !== null || session.hasRefreshToken();

export function App() {
  return (
    <>
      <DemoBanner />
      <Screen />
    </>
  );
}

function Screen() {
  const path = usePath();
  const isSignedIn = useSyncExternalStore(session.subscribe, signedIn);
  if (path === `${BASE}/signup`) return <SignupPage />;
  // The invitation token stays in the fragment: it never reaches a server log or a Referer header.
  if (path === `${BASE}/accept-invite`) return <AcceptInvitePage />;
  if (path === `${BASE}/forgot-password`) return <ForgotPasswordPage />;
  if (path === `${BASE}/reset-password`) return <ResetPasswordPage />;
  if (path === `${BASE}/verify-email`) return <VerifyEmailPage />;
  if (path === `${BASE}/email-preferences`) return <EmailPreferencesPage />;
  if (path === `${BASE}/login` || !isSignedIn) return <LoginPage />;
  return <Shell path={path} />;
}

/** The pages in the top bar, and the role each needs (everyone's, unless named). */
const NAV: readonly (readonly [slug: string, label: string, role?: Role])[] = [
  ['overview', 'Overview'],
  ['accounts', 'Accounts'],
  ['organizations', 'Organizations'],
  ['compliance', 'Compliance'],
  ['attack-paths', 'Attack paths'],
  ['alerts', 'Alerts'],
  ['alert-rules', 'Alert rules'],
  ['detections', 'Detections'],
  ['team', 'Team'],
  ['audit-log', 'Audit log', 'admin'],
  ['billing', 'Billing'],
];

function Shell({ path }: { path: string }) {
  const me = useLoad(() => trpc.me.get.query(), []);
  const page = route(path.replace(/\/+$/, ''));
  return (
    <div className="shell">
      <header className="top">
        <Link to={BASE} className="brand">
          Sentinel
        </Link>
        <nav>
          {NAV.filter(([, , role]) => !role || (me.data && hasRole(me.data.user.role, role))).map(([slug, label]) => (
            <Link key={slug} to={`${BASE}/${slug}`} className={isSection(path, slug) ? 'active' : ''}>
              {label}
            </Link>
          ))}
        </nav>
        <span className="who">{me.data ? `${me.data.user.name} (${me.data.user.role})` : ''}</span>
        <button type="button" className="link" onClick={() => void logOut().then(() => navigate(`${BASE}/login`))}>
          Log out
        </button>
      </header>
      <main>
        {me.error && <ErrorBox message={me.error} onRetry={me.reload} />}
        {!me.data && !me.error && <Loading />}
        {me.data && !me.data.user.email_verified && <VerifyEmailBanner />}
        {me.data && <MeContext.Provider value={me.data}>{page}</MeContext.Provider>}
      </main>
    </div>
  );
}

/** The top-bar entry of the page at `path`: its first segment, the overview for the home page. */
function isSection(path: string, slug: string): boolean {
  const page = path.replace(/\/+$/, '');
  return page === `${BASE}/${slug}` || page.startsWith(`${BASE}/${slug}/`) || (slug === 'overview' && page === BASE);
}

function route(path: string) {
  if (path === BASE || path === `${BASE}/overview`) return <OverviewPage />;
  if (path === `${BASE}/accounts`) return <AccountsPage />;
  // The pattern admits only the names of the account's tabs: its second group is an AccountTab.
  const account = /^\/app\/accounts\/([^/]+)(?:\/(compliance|events|attack-paths))?$/.exec(path);
  if (account)
    return (
      <AccountPage
        accountId={decodeURIComponent(account[1] as string)}
        tab={(account[2] as AccountTab | undefined) ?? 'overview'}
      />
    );
  if (path === `${BASE}/organizations`) return <OrganizationsPage />;
  const organization = /^\/app\/organizations\/([^/]+)$/.exec(path);
  if (organization) return <OrganizationPage orgId={decodeURIComponent(organization[1] as string)} />;
  if (path === `${BASE}/compliance`) return <CompliancePage />;
  if (path === `${BASE}/attack-paths`) return <AttackPathsPage />;
  if (path === `${BASE}/alerts`) return <AlertsPage />;
  if (path === `${BASE}/alert-rules`) return <AlertRulesPage />;
  if (path === `${BASE}/detections`) return <DetectionsPage />;
  if (path === `${BASE}/team`) return <TeamPage />;
  if (path === `${BASE}/audit-log`) return <AuditLogPage />;
  if (path === `${BASE}/billing`) return <BillingPage />;
  return <NotFoundPage />;
}

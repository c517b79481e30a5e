/**
 * /settings/filters (content moderation): subscribed mute lists, the server's spam and nsfw
 * lists, the allow list, and whether an account is on any of them.
 */
import { useTranslation } from 'react-i18next';
import '../../components/moderation/i18n';
import '../../components/moderation/moderation.css';
import { useAccount } from '../../lib/account';
import { AllowList } from '../../components/moderation/AllowList';
import { ContentFilters } from '../../components/moderation/ContentFilters';
import { FilterListCheck } from '../../components/moderation/FilterListCheck';
import { MuteListsSection } from '../../components/moderation/MuteListsSection';
import { SignInPrompt } from '../../components/moderation/SignInPrompt';
import { useBusy } from '../../lib/useBusy';

export default function FiltersSettings() {
  const { t } = useTranslation('moderation');
  const snapshot = useAccount();
  const { busy, run } = useBusy();
  if (!snapshot) return <p className="mod-empty" aria-busy="true">{t('loading')}</p>;
  const record = snapshot.account;
  if (!record) return <SignInPrompt />;


  return (
    <div className="mod-page">
      <MuteListsSection record={record} busy={busy} run={run} />
      <ContentFilters settings={snapshot.settings.settings} busy={busy} run={run} />
      <AllowList record={record} busy={busy} run={run} />
      <FilterListCheck viewer={record.pubkey} />
    </div>
  );
}

/**
 * /settings/profile: edits the signed-in account's kind 0. Every field another client wrote is
 * kept; the form survives a reload (sessionStorage) and a failed publish; nothing is signed
 * before the Save button.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { connect } from '../../worker-client';
import { useRequest } from '../../lib/useWorkerRequest';
import { accountAction, useAccount, useActingPubkey } from '../../lib/account';
import {
  buildProfileEvent,
  draftKey,
  emptyProfileValues,
  fieldProblem,
  hasProblems,
  parseDraft,
  parseProfileContent,
  sameValues,
  validateProfile,
  valuesFromContent,
  type FieldProblem,
  type PreviousProfile,
  type ProfileField,
  type ProfileFormValues,
} from '../../lib/profileForm';
import { toastError, toastSuccess } from '../../lib/toast';
import { parseProfile } from '../../../core/profile';
import { SETTINGS_NS } from '../../components/settings/i18n';
import { LoginPrompt, loginPending, SettingsLoading } from '../../components/settings/common';
import { ImageField } from '../../components/settings/ImageField';

type Source = { status: 'loading' } | { status: 'error' } | { status: 'ready'; previous?: PreviousProfile };

const fieldId = (field: ProfileField) => `profile-${field}`;
/** Top to bottom as drawn, so focus lands on the first problem the eye meets. */
const SCREEN_ORDER: readonly ProfileField[] = ['banner', 'picture', 'displayName', 'name', 'about', 'website', 'location', 'lud16', 'nip05'];

/** The newest kind 0 of the account in the cache; null when it has none yet (a new account). */
async function loadProfile(pubkey: string): Promise<PreviousProfile | null> {
  const reply = await (await connect()).request('user_infos', { pubkeys: [pubkey] });
  if (reply.notice !== undefined) throw new Error(reply.notice);
  let newest: PreviousProfile | null = null;
  for (const e of reply.events) {
    if (e.kind !== 0 || e.pubkey !== pubkey || typeof e.content !== 'string') continue;
    const created_at = typeof e.created_at === 'number' ? e.created_at : 0;
    if (newest && newest.created_at >= created_at) continue;
    const tags = Array.isArray(e.tags) ? (e.tags as unknown[]).filter((t): t is string[] => Array.isArray(t) && t.every((x) => typeof x === 'string')) : [];
    newest = { content: parseProfileContent(e.content), tags, created_at };
  }
  return newest;
}

function readDraft(pubkey: string): ProfileFormValues | undefined {
  try {
    return parseDraft(sessionStorage.getItem(draftKey(pubkey)));
  } catch {
    return undefined;
  }
}

function writeDraft(pubkey: string, values: ProfileFormValues | undefined): void {
  try {
    if (values) sessionStorage.setItem(draftKey(pubkey), JSON.stringify(values));
    else sessionStorage.removeItem(draftKey(pubkey));
  } catch {
    // Private mode without storage: the form still works, it just does not survive a reload.
  }
}

export default function ProfileEdit() {
  const { t } = useTranslation(SETTINGS_NS);
  const snapshot = useAccount();
  const pubkey = useActingPubkey();
  if (loginPending(snapshot)) return <SettingsLoading text={t('profile.loading')} />;
  if (!pubkey) return <LoginPrompt text={t('profile.loginPrompt')} />;
  return <ProfileEditor key={pubkey} pubkey={pubkey} npub={snapshot?.login.npub ?? ''} />;
}

function ProfileEditor({ pubkey, npub }: { pubkey: string; npub: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  const [draft] = useState(() => readDraft(pubkey));
  const [values, setValues] = useState<ProfileFormValues>(() => draft ?? emptyProfileValues());
  const [baseline, setBaseline] = useState<ProfileFormValues | null>(null);
  const [restored, setRestored] = useState(draft !== undefined);
  const [touched, setTouched] = useState<ReadonlySet<ProfileField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [submitError, setSubmitError] = useState('');
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState<Record<'picture' | 'banner', boolean>>({ picture: false, banner: false });
  const loaded = useRequest(() => loadProfile(pubkey), [pubkey]);
  // What this editor published last; the loaded profile until it has published.
  const [saved, setSaved] = useState<PreviousProfile>();
  const source: Source = saved
    ? { status: 'ready', previous: saved }
    : loaded.error !== undefined
      ? { status: 'error' }
      : loaded.loading || loaded.data === undefined
        ? { status: 'loading' }
        : loaded.data
          ? { status: 'ready', previous: loaded.data }
          : { status: 'ready' };

  useEffect(() => {
    if (loaded.data === undefined) return;
    const values = valuesFromContent(loaded.data?.content ?? {});
    setBaseline(values);
    // A restored draft wins over the loaded profile; without one the form shows what is published.
    setValues((current) => (draft ? current : values));
    if (draft && sameValues(draft, values)) setRestored(false);
  }, [loaded.data, draft]);

  // Only a form that differs from what is published is kept as a draft.
  useEffect(() => {
    if (!baseline) return;
    writeDraft(pubkey, sameValues(values, baseline) ? undefined : values);
  }, [pubkey, values, baseline]);

  const change = useCallback((field: ProfileField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setSubmitError('');
  }, []);
  const touch = (field: ProfileField) => setTouched((s) => (s.has(field) ? s : new Set(s).add(field)));
  const setPictureBusy = useCallback((busy: boolean) => setUploading((u) => ({ ...u, picture: busy })), []);
  const setBannerBusy = useCallback((busy: boolean) => setUploading((u) => ({ ...u, banner: busy })), []);

  const message = (field: ProfileField, problem: FieldProblem | undefined): string | undefined => {
    if (!problem) return undefined;
    // The username's character rule answers as you type; everything else waits for blur or Save.
    const shown = submitted || touched.has(field) || (field === 'name' && problem === 'usernameChars');
    if (!shown) return undefined;
    if (problem === 'required') return t(field === 'name' ? 'profile.errors.nameRequired' : 'profile.errors.displayNameRequired');
    return t(`profile.errors.${problem}`);
  };
  const errorOf = (field: ProfileField) => message(field, fieldProblem(field, values[field]));

  const discard = () => {
    if (baseline) setValues(baseline);
    writeDraft(pubkey, undefined);
    setRestored(false);
    setSubmitted(false);
    setTouched(new Set());
    setSubmitError('');
  };

  const save = async () => {
    setSubmitted(true);
    if (source.status !== 'ready' || saving) return;
    if (uploading.picture || uploading.banner) {
      setSubmitError(t('profile.waitUpload'));
      return;
    }
    const problems = validateProfile(values);
    if (hasProblems(problems)) {
      setSubmitError(problems.name === 'usernameChars' ? t('profile.errors.usernameInvalid') : t('profile.fixErrors'));
      const first = SCREEN_ORDER.find((f) => problems[f]);
      if (first) document.getElementById(fieldId(first))?.focus();
      return;
    }
    setSubmitError('');
    setSaving(true);
    try {
      const result = await (await connect()).publish(buildProfileEvent(source.previous, values));
      if (!result.success || !result.event) throw new Error('publish-failed');
      const signed = result.event;
      const previous: PreviousProfile = { content: parseProfileContent(signed.content), tags: signed.tags, created_at: signed.created_at };
      const published = valuesFromContent(previous.content);
      setSaved(previous);
      setBaseline(published);
      setValues(published);
      setRestored(false);
      setSubmitted(false);
      setTouched(new Set());
      toastSuccess(t('profile.saved'));
      // The shell's account chip shows the new name and picture without waiting for the cache.
      void accountAction({ type: 'setLocal', patch: { userProfile: parseProfile(signed) } }).catch(() => undefined);
    } catch {
      // What was typed stays in the form (and in the draft) for another try.
      toastError(t('profile.saveFailed'));
    } finally {
      setSaving(false);
    }
  };

  const busy = uploading.picture || uploading.banner;
  const text = (field: Exclude<ProfileField, 'picture' | 'banner' | 'about'>, extra: { hint?: string; required?: boolean; inputMode?: 'url' | 'email'; autoComplete?: string }) => (
    <TextField
      field={field}
      label={t(`profile.${field}`)}
      value={values[field]}
      error={errorOf(field)}
      onChange={change}
      onBlur={touch}
      {...extra}
    />
  );

  return (
    <form
      className="settings-form profile-edit"
      noValidate
      aria-busy={source.status === 'loading' || saving}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {restored && (
        <div className="settings-banner" role="status">
          <span>{t('profile.draftRestored')}</span>
          <button type="button" className="button button-secondary settings-banner-action" onClick={discard}>
            {t('profile.discardDraft')}
          </button>
        </div>
      )}
      {source.status === 'loading' && <SettingsLoading text={t('profile.loading')} />}
      {source.status === 'error' && (
        <div className="settings-banner settings-banner-error" role="alert">
          <span>{t('profile.loadFailed')}</span>
          <button type="button" className="button button-secondary settings-banner-action" onClick={loaded.reload}>
            {t('profile.retry')}
          </button>
        </div>
      )}
      <fieldset className="settings-fieldset" disabled={source.status === 'loading' || saving}>
        <ImageField
          id={fieldId('banner')}
          label={t('profile.banner')}
          variant="banner"
          value={values.banner}
          error={errorOf('banner')}
          onChange={(url) => change('banner', url)}
          onBlur={() => touch('banner')}
          onBusyChange={setBannerBusy}
        />
        <ImageField
          id={fieldId('picture')}
          label={t('profile.picture')}
          variant="avatar"
          value={values.picture}
          error={errorOf('picture')}
          onChange={(url) => change('picture', url)}
          onBlur={() => touch('picture')}
          onBusyChange={setPictureBusy}
        />
        {text('displayName', { hint: t('profile.displayNameHint'), required: true, autoComplete: 'nickname' })}
        {text('name', { hint: t('profile.nameHint'), required: true, autoComplete: 'username' })}
        <TextField field="about" label={t('profile.about')} value={values.about} error={errorOf('about')} onChange={change} onBlur={touch} multiline />
        {text('website', { inputMode: 'url', autoComplete: 'url' })}
        {text('location', { autoComplete: 'address-level2' })}
        {text('lud16', { hint: t('profile.lud16Hint'), inputMode: 'email' })}
        {text('nip05', { hint: t('profile.nip05Hint'), inputMode: 'email' })}
      </fieldset>
      <div className="settings-actions">
        {submitError && (
          <p className="form-error settings-actions-error" role="alert">
            {submitError}
          </p>
        )}
        <button type="submit" className="button" disabled={saving || source.status !== 'ready'} aria-describedby={busy ? 'profile-wait' : undefined}>
          {saving ? t('profile.saving') : t('profile.save')}
        </button>
        {npub && (
          <Link href={`/p/${npub}`} className="settings-secondary-link">
            {t('profile.viewProfile')}
          </Link>
        )}
        {busy && (
          <span id="profile-wait" className="form-hint">
            {t('profile.waitUpload')}
          </span>
        )}
      </div>
    </form>
  );
}

interface TextFieldProps {
  field: ProfileField;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
  /** Typed as text: url/email inputs strip spaces while typing, which fights a controlled value. */
  inputMode?: 'url' | 'email';
  autoComplete?: string;
  onChange: (field: ProfileField, value: string) => void;
  onBlur: (field: ProfileField) => void;
}

function TextField({ field, label, value, error, hint, required, multiline, inputMode, autoComplete, onChange, onBlur }: TextFieldProps) {
  const id = fieldId(field);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-required': required || undefined,
    'aria-describedby': describedBy,
    onBlur: () => onBlur(field),
  };
  let control: ReactNode;
  if (multiline) {
    control = <textarea className="form-textarea" rows={4} {...common} onChange={(e) => onChange(field, e.currentTarget.value)} />;
  } else {
    const plain = field === 'name' || inputMode !== undefined;
    control = (
      <input
        className="form-input"
        type="text"
        inputMode={inputMode}
        autoComplete={autoComplete}
        autoCapitalize={plain ? 'off' : undefined}
        spellCheck={plain ? false : undefined}
        {...common}
        onChange={(e) => onChange(field, e.currentTarget.value)}
      />
    );
  }
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {control}
      {hint && (
        <p id={`${id}-hint`} className="form-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}

import { useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_TOPIC, normalizeTopic, normalizeTopics, splitTopicInput } from '../../lib/article';

interface TopicInputProps {
  topics: string[];
  onChange: (topics: string[]) => void;
}

/** Topics as removable chips; Enter or a comma turns the typed text into one. */
export function TopicInput({ topics, onChange }: TopicInputProps) {
  const { t } = useTranslation('editor');
  const [text, setText] = useState('');
  const [error, setError] = useState(false);

  /** Adds the parts that fit; whatever does not fit stays in the field with the message. */
  const commit = (raw: string): void => {
    const parts = splitTopicInput(raw);
    const tooLong = parts.filter((p) => !normalizeTopic(p) && p.replace(/^#+/, '').trim().length > MAX_TOPIC);
    const good = parts.filter((p) => !tooLong.includes(p));
    if (good.length > 0) onChange(normalizeTopics([...topics, ...good]));
    setText(tooLong.join(', '));
    setError(tooLong.length > 0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      if (text.trim()) commit(text);
    } else if (event.key === 'Backspace' && text === '' && topics.length > 0) {
      // Backspace in the empty field takes back the last chip, as in most tag inputs.
      onChange(topics.slice(0, -1));
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text');
    if (!pasted.includes(',')) return;
    event.preventDefault();
    commit(text + pasted);
  };

  return (
    <div className="form-field editor-topics">
      <label htmlFor="editor-topic-input">{t('fields.topics')}</label>
      <div className="editor-topics-box">
        {topics.length > 0 && (
          <ul className="editor-topic-list" aria-label={t('fields.topicsLabel')}>
            {topics.map((topic) => (
              <li key={topic} className="editor-topic">
                <span>#{topic}</span>
                <button
                  type="button"
                  className="editor-topic-remove"
                  aria-label={t('fields.topicRemove', { topic })}
                  onClick={() => onChange(topics.filter((x) => x !== topic))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id="editor-topic-input"
          className="editor-topic-input"
          value={text}
          placeholder={t('fields.topicsPlaceholder')}
          aria-describedby="editor-topic-hint"
          aria-invalid={error || undefined}
          enterKeyHint="enter"
          autoComplete="off"
          onChange={(e) => {
            const value = e.target.value;
            // Phones type the comma without a keydown we can see.
            if (value.includes(',')) commit(value);
            else {
              setText(value);
              if (error) setError(false);
            }
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => {
            if (text.trim()) commit(text);
          }}
        />
      </div>
      {error ? (
        <p className="form-error" id="editor-topic-hint" role="alert">
          {t('errors.topicTooLong')}
        </p>
      ) : (
        <p className="form-hint" id="editor-topic-hint">
          {t('fields.topicsHint')}
        </p>
      )}
    </div>
  );
}

import { openLogin } from '../lib/overlays';
import { StatusMessage } from './StatusMessage';

/** A page that needs a signed-in user says why, with the login button; the texts are the page's own. */
export function SignInPrompt({ title, text, login }: { title: string; text: string; login: string }) {
  return (
    <StatusMessage
      title={title}
      action={
        <button type="button" className="button" onClick={openLogin}>
          {login}
        </button>
      }
    >
      {text}
    </StatusMessage>
  );
}

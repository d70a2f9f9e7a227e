import type { Logger } from 'pino';
import type { Pool } from '@mailer/shared';
import type { SignInThrottle } from '../../data-access/sign-in-throttle';
import type { NewKeyFlash } from './new-key-flash';

export interface SettingsDeps {
  pool: Pool;
  logger: Logger;
  throttle: SignInThrottle;
  flash: NewKeyFlash;
  /** Tells every gateway instance that a key was revoked. */
  announceRevocation: (keyId: string) => Promise<void>;
  /** Counts a refused sign-in (metrics). */
  onSignInFailed?: () => void;
}

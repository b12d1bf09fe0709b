import { type UserProfile } from '@console/domain';
import { MESSAGES } from '@/lib/wording';

type Person = Pick<UserProfile, 'first_name' | 'email'> | null;

/** The avatar's letter: of the first name, else of the e-mail, else the shell's fallback. */
export function avatarFallback(user: Person): string {
  return user?.first_name?.charAt(0) || user?.email.charAt(0) || MESSAGES.shell.avatarFallback;
}

/** The profile menu's name line: the first name, else Profile. */
export function displayName(user: Person): string {
  return user?.first_name || MESSAGES.shell.profileFallback;
}

/** First and last name, or an empty string when neither is known. */
export function fullName(person: Pick<UserProfile, 'first_name' | 'last_name'>): string {
  return [person.first_name, person.last_name].filter(Boolean).join(' ');
}

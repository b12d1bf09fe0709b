import { ApiKeysCard } from '@/features/api-keys/components/api-keys-card';
import SettingsPage from '@/features/settings/pages/settings-page';

/** /settings: the settings page with the API keys card of the api-keys feature, composed here as features never import each other. */
export default function SettingsRoute() {
  return <SettingsPage ApiKeysCard={ApiKeysCard} />;
}

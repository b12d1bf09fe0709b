import { ApiKeysCard } from '@/features/api-keys/components/ApiKeysCard';
import SettingsPage from '@/features/settings/pages/SettingsPage';

/** /settings: the settings page with the API keys card of the api-keys feature, composed here as features never import each other. */
export default function SettingsRoute() {
  return <SettingsPage ApiKeysCard={ApiKeysCard} />;
}

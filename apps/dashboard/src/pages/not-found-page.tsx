import { Link } from 'react-router';
import { Page } from '../components/page';

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>
        There is no such page. <Link to="/">Go to the home page</Link>.
      </p>
    </Page>
  );
}

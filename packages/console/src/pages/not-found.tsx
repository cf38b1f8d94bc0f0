import { Link } from 'react-router';
import { Page } from '../ui/page.js';

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>
        Nothing lives at this address. Go to the <Link to="/">overview</Link> or the <Link to="/clients">clients</Link>.
      </p>
    </Page>
  );
}

import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/**
 * Two-key jumps in the style of GitHub and Grafana: `g` then a letter. Ignored while typing in a
 * field, so they never eat input.
 */
export function useShortcuts(clientId: string | undefined) {
  const navigate = useNavigate();
  useEffect(() => {
    let armed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        target.closest('input, textarea, select, [contenteditable]')
      ) {
        return;
      }
      if (!armed) {
        if (event.key === 'g') {
          armed = true;
          timer = setTimeout(() => {
            armed = false;
          }, 1500);
        }
        return;
      }
      armed = false;
      clearTimeout(timer);
      const client = clientId ? `/clients/${clientId}` : undefined;
      const targets: Record<string, string | undefined> = {
        o: '/',
        c: '/clients',
        r: client && `${client}/reviews`,
        a: client && `${client}/ai`,
        s: client && `${client}/scm`,
        w: client && `${client}/webhooks`,
      };
      const to = targets[event.key];
      if (to) {
        event.preventDefault();
        navigate(to);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      clearTimeout(timer);
    };
  }, [clientId, navigate]);
}

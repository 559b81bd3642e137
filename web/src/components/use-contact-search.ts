import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { TicketContact } from '../api/types';

/** Contact suggestions start after this many typed characters (spec §5). */
const MIN_SEARCH = 3;
const SEARCH_DEBOUNCE_MS = 300;

export type ContactChoice = Pick<TicketContact, 'id' | 'name' | 'number'> & { profilePicUrl?: string };

/** The contacts whose name or number contains the typed text, fetched once 3 characters are typed (a contact picker: new ticket, schedule). */
export function useContactSearch(open: boolean) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<ContactChoice[]>([]);
  const [searching, setSearching] = useState(false);
  const term = text.trim().toLowerCase();

  useEffect(() => {
    if (!open || term.length < MIN_SEARCH) {
      setFound([]);
      setSearching(false);
      return;
    }
    const controller = new AbortController();
    setSearching(true);
    const timer = window.setTimeout(() => {
      api
        .get<{ contacts: ContactChoice[] }>('/contacts', { searchParam: term, pageNumber: 1 }, { signal: controller.signal })
        .then((answer) => setFound(answer.contacts))
        .catch(() => setFound([]))
        .finally(() => {
          if (!controller.signal.aborted) setSearching(false);
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [open, term]);

  return { text, setText, found, searching, tooShort: term.length < MIN_SEARCH };
}

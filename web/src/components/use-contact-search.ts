import { useEffect, useState } from 'react';
import type { TicketContact } from '../api/types';
import { useApiQuery } from '../hooks/use-api-query';

/** Contact suggestions start after this many typed characters (spec §5). */
const MIN_SEARCH = 3;
const SEARCH_DEBOUNCE_MS = 300;
const NONE: ContactChoice[] = [];

export type ContactChoice = Pick<TicketContact, 'id' | 'name' | 'number'> & { profilePicUrl?: string };

/** The contacts whose name or number contains the typed text, fetched once 3 characters are typed (a contact picker: new ticket, schedule). */
export function useContactSearch(open: boolean) {
  const [text, setText] = useState('');
  const term = text.trim().toLowerCase();
  const [asked, setAsked] = useState(term);
  const searchable = open && term.length >= MIN_SEARCH;

  useEffect(() => {
    const timer = window.setTimeout(() => setAsked(term), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term]);

  // A failed search offers nothing (the picker stays usable); the last answer stays until the next.
  const search = useApiQuery<{ contacts: ContactChoice[] }>('/contacts', {
    query: { searchParam: asked, pageNumber: 1 },
    enabled: searchable && asked.length >= MIN_SEARCH,
    keepPrevious: true,
  });
  const found = searchable && !search.isError ? (search.data?.contacts ?? NONE) : NONE;
  const searching = searchable && (asked !== term || search.isFetching);

  return { text, setText, found, searching, tooShort: term.length < MIN_SEARCH };
}

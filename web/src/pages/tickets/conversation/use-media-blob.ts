import { useEffect, useState } from 'react';
import { ApiError, getToken, refreshSession } from '../../../api/client';

/**
 * Fetches an authenticated media file ('/api/media/<file>') with the session's token. Like the api
 * client, a refused token is refreshed once and the request retried.
 */
export async function fetchMediaBlob(url: string, signal?: AbortSignal): Promise<Blob> {
  const send = () => {
    const token = getToken();
    return fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal, credentials: 'same-origin' });
  };
  let res = await send();
  if ((res.status === 401 || res.status === 403) && (await refreshSession().catch(() => null))) res = await send();
  if (!res.ok) throw new ApiError(res.status, `HTTP_${res.status}`, res.statusText);
  return res.blob();
}

/** Downloads a media file under its own name (files are not fetched until asked for). */
export async function downloadMedia(url: string, fileName: string): Promise<void> {
  const objectUrl = URL.createObjectURL(await fetchMediaBlob(url));
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; give it a moment before letting it go.
  window.setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}

export interface MediaBlob {
  /** An object URL for src/href, once loaded. */
  src: string | null;
  loading: boolean;
  failed: boolean;
}

/** An authenticated media URL as an object URL, revoked when the component goes or the URL changes. */
export function useMediaBlob(url: string | null | undefined): MediaBlob {
  const [state, setState] = useState<MediaBlob & { url: string | null }>({ url: null, src: null, loading: false, failed: false });

  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    setState({ url, src: null, loading: true, failed: false });
    fetchMediaBlob(url, controller.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ url, src: objectUrl, loading: false, failed: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ url, src: null, loading: false, failed: true });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);

  // A state left from a previous URL is not this one's.
  if (!url) return { src: null, loading: false, failed: false };
  if (state.url !== url) return { src: null, loading: true, failed: false };
  return { src: state.src, loading: state.loading, failed: state.failed };
}

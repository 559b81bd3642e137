import { useEffect, useState } from 'react';

/** The window width, updated on resize: the drawer and a few lists adapt to it. */
export function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

export const NARROW_WIDTH = 600;
export const WIDE_WIDTH = 1200;

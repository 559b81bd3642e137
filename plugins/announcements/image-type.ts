import { open } from 'node:fs/promises';
import path from 'node:path';

/** The images an announcement takes (spec §5: png, jpg, jpeg), by name and by content. */
export const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg']);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

/** The file's first bytes. */
async function head(file: string, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Whether a file named `name` at `file` is a PNG or JPEG image: its extension one of png, jpg,
 * jpeg, and its bytes starting as that format's do (a text file renamed .png is not an image).
 */
export async function isAnnouncementImage(name: string, file: string): Promise<boolean> {
  const extension = path.extname(name).toLowerCase();
  if (!IMAGE_EXTENSIONS.has(extension)) return false;
  const bytes = await head(file, PNG_SIGNATURE.length);
  const signature = extension === '.png' ? PNG_SIGNATURE : JPEG_SIGNATURE;
  return bytes.subarray(0, signature.length).equals(signature);
}

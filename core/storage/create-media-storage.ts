import type { Config } from '../config/config.schema.js';
import type { Logger } from '../logger.js';
import { DiskMediaStorage, type MediaStorage } from './media-storage.js';
import { S3MediaStorage } from './s3-media-storage.js';

/** The media storage the configuration chooses (loadConfig has checked the s3 keys are there). */
export function createMediaStorage(config: Config, log: Logger): MediaStorage {
  if (config.storage === 'disk') return new DiskMediaStorage(config.mediaDir);
  return new S3MediaStorage({
    ...(config.s3Endpoint && { endpoint: config.s3Endpoint }),
    region: config.s3Region,
    bucket: config.s3Bucket!,
    accessKeyId: config.s3AccessKeyId!,
    secretAccessKey: config.s3SecretAccessKey!,
    forcePathStyle: config.s3ForcePathStyle,
    prefix: config.s3Prefix,
  }, log);
}

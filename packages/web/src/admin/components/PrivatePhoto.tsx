import { Image, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { adminApi } from '../../data/admin-api.ts';
import { errorText } from './common.tsx';

/**
 * An identity photo: fetched with the administrator's session (the private path never serves it to anyone
 * else, and never from a cache), shown from memory, and released when it leaves the screen.
 */
export function PrivatePhoto({ path, label, testId }: { path: string; label: string; testId: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let revoked = false;
    let created: string | null = null;
    adminApi
      .blobUrl(path)
      .then((objectUrl) => {
        if (revoked) URL.revokeObjectURL(objectUrl);
        else {
          created = objectUrl;
          setUrl(objectUrl);
        }
      })
      .catch((caught: unknown) => setError(errorText(caught)));
    return () => {
      revoked = true;
      if (created !== null) URL.revokeObjectURL(created);
    };
  }, [path]);
  return (
    <figure className="fx-admin-photo" data-testid={testId}>
      {url !== null ? (
        <Image src={url} alt={label} width="100%" height={150} />
      ) : error !== null ? (
        <Typography.Text type="danger">{error}</Typography.Text>
      ) : (
        <Skeleton.Image active />
      )}
      <figcaption>{label}</figcaption>
    </figure>
  );
}

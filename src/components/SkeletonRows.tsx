import { useEffect, useState } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';

/** Spec 9: skeleton rows last up to two seconds; a slower answer shows a thin progress bar instead. */
export const SKELETON_MAX_MS = 2000;

/** Placeholder rows while a table loads (webhook settings use four), for at most two seconds. */
export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setExpired(true), SKELETON_MAX_MS);
    return () => clearTimeout(timer);
  }, []);
  if (expired) {
    return (
      <TableRow data-testid="loading-row">
        <TableCell colSpan={columns}>
          <LinearProgress />
        </TableCell>
      </TableRow>
    );
  }
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <TableRow key={row} data-testid="skeleton-row">
          {Array.from({ length: columns }, (_, column) => (
            <TableCell key={column}>
              <Skeleton variant="text" />
            </TableCell>
          ))}
        </TableRow>
      ))}
    </>
  );
}

import Box from '@mui/material/Box';
import { useListPaginationContext } from 'ra-core';
import { PageSizeSelector } from '../PageSizeSelector';
import { Paging } from '../Paging';

/** The spec's paging controls (at most five numbers, first and last) and rows per page, on the list's context. */
export function ListPagination({ pageSizes = true }: { pageSizes?: boolean }) {
  const { page, perPage, total, setPage, setPerPage } = useListPaginationContext();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Paging page={page} pageSize={perPage} totalCount={total ?? 0} onPageChange={setPage} />
      {pageSizes && <PageSizeSelector value={perPage} onChange={setPerPage} />}
    </Box>
  );
}

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { useTranslate } from 'ra-core';
import { pageItems, totalPages } from './paging';

export interface PagingProps {
  /** 1-based current page. */
  page: number;
  pageSize: number;
  totalCount: number;
  onPageChange: (page: number) => void;
}

/** Paging controls: previous, at most five numbers with ellipses, next. */
export function Paging({ page, pageSize, totalCount, onPageChange }: PagingProps) {
  const translate = useTranslate();
  const pages = totalPages(totalCount, pageSize);
  return (
    <Box component="nav" aria-label={translate('app.components.pagination')} sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}>
      <IconButton size="small" disabled={page <= 1} onClick={() => onPageChange(page - 1)} aria-label={translate('app.components.previousPage')}>
        <ChevronLeft />
      </IconButton>
      {pageItems(page, pages).map((item) =>
        typeof item === 'number' ? (
          <Button
            key={item}
            size="small"
            variant={item === page ? 'contained' : 'text'}
            aria-current={item === page ? 'page' : undefined}
            aria-label={translate('app.components.goToPage', { page: item })}
            onClick={() => item !== page && onPageChange(item)}
            sx={{ minWidth: 36 }}
          >
            {item}
          </Button>
        ) : (
          <Typography key={item} component="span" sx={{ px: 0.5 }} aria-hidden>
            …
          </Typography>
        ),
      )}
      <IconButton size="small" disabled={page >= pages} onClick={() => onPageChange(page + 1)} aria-label={translate('app.components.nextPage')}>
        <ChevronRight />
      </IconButton>
    </Box>
  );
}

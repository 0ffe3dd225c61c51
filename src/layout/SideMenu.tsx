import { Link, useLocation } from 'react-router-dom';
import Badge from '@mui/material/Badge';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useStore, useTranslate } from 'ra-core';
import { currentMenuPath, type MenuEntry, type MenuGroup, type MenuLink } from './menus';
import type { ErrorFlags } from './useErrorFlags';
import { MENU_TRANSITION_MS } from './theme';

interface SideMenuProps {
  entries: MenuEntry[];
  flags: ErrorFlags;
  onNavigate?: () => void;
}

function Label({ text, dot }: { text: string; dot: boolean }) {
  const translate = useTranslate();
  return (
    <Badge variant="dot" color="error" invisible={!dot} slotProps={{ badge: { 'aria-label': dot ? translate('app.menu.errorFlag') : undefined } as object }} sx={{ pr: 1 }}>
      {text}
    </Badge>
  );
}

function LinkItem({ item, current, flags, nested, onNavigate }: { item: MenuLink; current?: string; flags: ErrorFlags; nested?: boolean; onNavigate?: () => void }) {
  const translate = useTranslate();
  return (
    <ListItemButton component={Link} to={item.path} selected={current === item.path} onClick={onNavigate} sx={nested ? { pl: 4 } : undefined}>
      <ListItemText primary={<Label text={translate(item.label)} dot={item.flag ? flags[item.flag] : false} />} />
    </ListItemButton>
  );
}

function GroupItem({ group, current, flags, onNavigate }: { group: MenuGroup; current?: string; flags: ErrorFlags; onNavigate?: () => void }) {
  const translate = useTranslate();
  // Kept in react-admin's store: a group stays as the person left it when the shell is drawn again
  // (an auth re-check shows the progress bar in its place), not only while it stays mounted.
  const [open, setOpen] = useStore(`menu.${group.label}.open`, group.items.some((item) => item.path === current));
  const dot = (group.flags ?? []).some((flag) => flags[flag]);
  return (
    <>
      <ListItemButton onClick={() => setOpen(!open)} aria-expanded={open}>
        <ListItemText primary={<Label text={translate(group.label)} dot={dot} />} />
        {open ? <ExpandLess /> : <ExpandMore />}
      </ListItemButton>
      <Collapse in={open} timeout={MENU_TRANSITION_MS} unmountOnExit>
        <List disablePadding>
          {group.items.map((item) => (
            <LinkItem key={item.path} item={item} current={current} flags={flags} nested onNavigate={onNavigate} />
          ))}
        </List>
      </Collapse>
    </>
  );
}

/** The role's menu: links, expandable groups, the current route highlighted, red dots for errors. */
export function SideMenu({ entries, flags, onNavigate }: SideMenuProps) {
  const { pathname } = useLocation();
  const current = currentMenuPath(entries, pathname);
  return (
    <List component="nav" sx={{ pt: 1 }}>
      {entries.map((entry) =>
        entry.kind === 'link' ? (
          <LinkItem key={entry.path} item={entry} current={current} flags={flags} onNavigate={onNavigate} />
        ) : (
          <GroupItem key={entry.label} group={entry} current={current} flags={flags} onNavigate={onNavigate} />
        ),
      )}
    </List>
  );
}

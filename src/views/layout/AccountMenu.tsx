/** The 'My Account' dropdown (product.md#layout) on Ark UI's menu: keyboard and screen-reader ready. */
import { Menu } from '@ark-ui/react/menu';
import { Portal } from '@ark-ui/react/portal';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { routes } from '../../lib/route-paths';
import { m } from '../../i18n';
import { button } from '../../styles/ui.css';
import { useServices } from '../services';
import * as css from './layout.css';
import { connectSession } from '../../machines/session';
import { useConnect } from '../useFlow';

/**
 * `defaultOpen`: a click on the stand-in while this code loaded opens the menu at once. `focusTrigger`:
 * the stand-in had the focus, so this menu's button takes it (the stand-in is gone).
 */
export default function AccountMenu({ defaultOpen = false, focusTrigger = false }: { defaultOpen?: boolean; focusTrigger?: boolean }) {
  const { session } = useServices();
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusTrigger && !defaultOpen) trigger.current?.focus();
    // Only as it first shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const { user, logout } = useConnect(session, connectSession);
  const [, navigate] = useLocation();

  function onSelect({ value }: { value: string }) {
    if (value === 'account') navigate(routes.account);
    else if (value === 'subscription') navigate(routes.subscription);
    else if (value === 'logout') {
      logout();
      navigate(routes.home);
    }
  }

  return (
    <Menu.Root onSelect={onSelect} defaultOpen={defaultOpen}>
      <Menu.Trigger ref={trigger} className={button.secondary}>
        {user?.photo ? <img className={css.menuAvatar} src={user.photo} alt="" width={24} height={24} /> : null}
        {m.my_account()}
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content className={css.menuContent}>
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel className={css.menuTitle}>
                {user ? `${user.firstName} ${user.lastName}` : m.my_account()}
              </Menu.ItemGroupLabel>
              <Menu.Item value="account" className={css.menuItem}>{m.account()}</Menu.Item>
              <Menu.Item value="subscription" className={css.menuItem}>{m.subscription()}</Menu.Item>
              <Menu.Item value="logout" className={css.menuItem}>{m.log_out()}</Menu.Item>
            </Menu.ItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

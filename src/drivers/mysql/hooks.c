/*
 * hooks.c: the layered driver's hooks in force (see hooks.h); none unless one set them.
 */
#include "drivers/mysql/hooks.h"

mysqldrv_hooks mysqldrv_active_hooks;

void mysqldrv_set_hooks(const mysqldrv_hooks *hooks)
{
  mysqldrv_active_hooks = *hooks;
}

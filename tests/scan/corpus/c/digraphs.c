/* expect: asm@4 opcode-bytes@6 asm@10 */
/* Digraphs spell the same program: %: is #, <% %> are braces. */
%:include <stdio.h>
%:define HIDE __asm__

static unsigned char sc<::> = <% 0x0f, 0x05 %>;

int main(void)
<%
    HIDE("nop");
    printf("%d\n", sc<:0:>);
    return 0;
%>

# What a bash completion offers for a line, the cursor at its end, as bash would ask it:
#	bash complete-driver.bash COMPLETION-SCRIPT LINE
# prints COMPREPLY, one candidate a line, in the order the completion gave them.
# Used by t1100-options-agree.sh and t1102-completion.sh.
. "$1"
COMP_LINE=$2
COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<<"$COMP_LINE"
[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
_sdtrace
printf '%s\n' "${COMPREPLY[@]}"
